// The player's hands on the table: a mouse or a finger drags a piece or pans
// the table, a second finger twists the held piece or pinches to zoom, the
// wheel zooms, a right click turns, and keys do all of it too.

import { $, canvas } from './dom.js';
import { UNIT, pieceAt, pinchedView, toScreen, toTable } from './geometry.js';
import { nameOf, placedRight } from './state.js';
import { heldText } from './parts.js';
import { now } from './link.js';
import { me, room } from './session.js';
import { hand, startDrag, moveDrag, dropDrag, releaseDrag, rotate } from './hand.js';
import { view, viewArea, fit, zoomAt, zoomCenter, panBy, minScale, resizeCanvas, layoutChanged } from './view.js';
import { needDraw, piecesInOrder } from './draw.js';
import { ensurePicture } from './pictures.js';
import { toggleLid, drawLid, askHint, askNext, toggleWho, toggleHelp } from './hud.js';
import { openChat } from './chat.js';
import { showRooms } from './lobby.js';
import { ERRORS, toast } from './notices.js';
import { hidden } from './lens.js';
import { lens, mapPress, mapMove, toolKey } from './tools.js';
import { edgeScroll, stopEdgeScroll } from './edgescroll.js';

const pointers = new Map();
let gesture = null; // pan or pinch
let lastPointerType = 'mouse';
// A fitted view fits again on resize, but not under a finger or the mouse:
// the point under the pointer must not move mid-drag (a phone's bars come and go).
let refitLater = false, settleTimer = 0;

function pointerXY(e) { const r = canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
// A piece the player's view leaves out (edges only) is out of reach too.
const pieceUnder = (pt) => pieceAt(lens.filter === 'all' ? piecesInOrder() : piecesInOrder().filter((p) => !hidden(lens, room, p)), view, pt.x, pt.y);

function pointerDown(e) {
  lastPointerType = e.pointerType;
  if (!room.joined) return;
  canvas.focus({ preventScroll: true });
  const pt = pointerXY(e);
  pointers.set(e.pointerId, { x: pt.x, y: pt.y, x0: pt.x, y0: pt.y, t0: now() });
  try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* gone */ }
  if (e.pointerType === 'mouse' && e.button === 2) return; // contextmenu turns
  if (pointers.size === 2) {
    if (hand.down && hand.pointerId !== null && pointers.has(hand.pointerId)) {
      const a = pointers.get(hand.pointerId);
      hand.twist = { id: e.pointerId, angle: Math.atan2(pt.y - a.y, pt.x - a.x), turned: 0, t0: now() };
      return;
    }
    startPinch();
    return;
  }
  if (pointers.size > 2) return;
  if (e.button === 1) { gesture = { kind: 'pan', id: e.pointerId, x: pt.x, y: pt.y }; return; }
  if (mapPress(pt)) { gesture = { kind: 'map', id: e.pointerId }; return; }
  const p = pieceUnder(pt);
  if (p && !me.watching && (!p.holder || p.holder === me.id)) {
    hand.lastTouched = p.id;
    const t = toTable(view, pt.x, pt.y);
    if (startDrag(p, 'pointer', t.x - p.dx, t.y - p.dy)) { hand.down = true; hand.pointerId = e.pointerId; }
    e.preventDefault();
    return;
  }
  // Someone else's piece: say whose, and take nothing (nor pan: the press was meant for the piece).
  if (p && p.holder && p.holder !== me.id) { toast(heldText(room, p, nameOf(room, p.holder))); return; }
  gesture = { kind: 'pan', id: e.pointerId, x: pt.x, y: pt.y };
}

function pointerMove(e) {
  const pt = pointerXY(e);
  const ptr = pointers.get(e.pointerId);
  if (ptr) { ptr.x = pt.x; ptr.y = pt.y; }
  if (hand.down && e.pointerId === hand.pointerId) {
    const t = toTable(view, pt.x, pt.y);
    moveDrag(t.x - hand.offX, t.y - hand.offY);
    hand.lastKey = now();
    checkTwist();
    // Near the screen's edge the view moves on, the piece with it.
    edgeScroll(pt, followPointer);
    return;
  }
  if (hand.twist && e.pointerId === hand.twist.id) { checkTwist(); return; }
  if (gesture && gesture.kind === 'pinch') { movePinch(); return; }
  if (gesture && gesture.kind === 'map' && gesture.id === e.pointerId) { mapMove(pt); return; }
  if (gesture && gesture.kind === 'pan' && gesture.id === e.pointerId) {
    panBy(pt.x - gesture.x, pt.y - gesture.y);
    gesture.x = pt.x; gesture.y = pt.y;
    return;
  }
  if (e.pointerType === 'mouse' && !pointers.size) {
    const p = room.joined ? pieceUnder(pt) : null;
    canvas.classList.toggle('over-piece', !!p && !p.holder && !me.watching);
  }
}

function pointerEnd(e, cancelled) {
  const ptr = pointers.get(e.pointerId);
  pointers.delete(e.pointerId);
  if (hand.twist && e.pointerId === hand.twist.id) {
    // A second finger's quick tap turns the piece once.
    if (!hand.twist.turned && ptr && now() - ptr.t0 < 350 && Math.hypot(ptr.x - ptr.x0, ptr.y - ptr.y0) < 12) rotate();
    hand.twist = null;
    return;
  }
  if (hand.down && e.pointerId === hand.pointerId) {
    stopEdgeScroll();
    if (cancelled) releaseDrag(); else dropDrag();
    return;
  }
  if (gesture && gesture.kind === 'pinch') {
    if (pointers.size === 1) {
      const [id, q] = [...pointers.entries()][0];
      gesture = { kind: 'pan', id, x: q.x, y: q.y };
    } else if (!pointers.size) gesture = null;
    return;
  }
  if (gesture && gesture.id === e.pointerId) gesture = null;
}

/** The view moved under a held piece: it goes back under its pointer. */
function followPointer() {
  const q = hand.down ? pointers.get(hand.pointerId) : null;
  if (!q || hand.piece < 0) return false;
  const t = toTable(view, q.x, q.y);
  moveDrag(t.x - hand.offX, t.y - hand.offY);
  return true;
}

function pointersDone() { if (!pointers.size && refitLater) { refitLater = false; if (view.fitted) fit(); } }

function checkTwist() {
  const tw = hand.twist;
  if (!tw || !pointers.has(tw.id) || !pointers.has(hand.pointerId)) return;
  const a = pointers.get(hand.pointerId), b = pointers.get(tw.id);
  const ang = Math.atan2(b.y - a.y, b.x - a.x);
  let d = ang - tw.angle;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  if (Math.abs(d) >= Math.PI / 4) {
    // Clockwise on screen is a quarter turn; anticlockwise three.
    const n = d > 0 ? 1 : 3;
    for (let i = 0; i < n; i++) rotate();
    tw.angle += d > 0 ? Math.PI / 2 : -Math.PI / 2;
    tw.turned++;
  }
}

function startPinch() {
  const [a, b] = [...pointers.values()];
  gesture = { kind: 'pinch', d0: Math.max(10, Math.hypot(b.x - a.x, b.y - a.y)), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2,
    scale: view.scale, ox: view.ox, oy: view.oy };
}

function movePinch() {
  const pts = [...pointers.values()];
  if (pts.length < 2) return;
  Object.assign(view, pinchedView(gesture, pts[0], pts[1], minScale()));
  view.fitted = false;
  ensurePicture();
  needDraw();
}

function wheel(e) {
  e.preventDefault();
  if (!room.joined) return;
  const pt = pointerXY(e);
  const dy = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
  zoomAt(pt.x, pt.y, Math.exp(-dy * 0.0015));
}

function contextMenu(e) {
  e.preventDefault();
  if (!room.joined || lastPointerType !== 'mouse') return;
  const pt = pointerXY(e);
  if (hand.piece >= 0) { rotate(); return; }
  const p = pieceUnder(pt);
  if (p) { hand.lastTouched = p.id; rotate(p); }
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function keyDown(e) {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
  if (!me.inGame) return;
  if (typing) {
    if (e.key === 'Escape') { e.target.blur(); canvas.focus(); }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  hand.lastKey = now();
  const step = e.shiftKey ? UNIT : 1, pan = e.shiftKey ? 160 : 60;
  if (ARROWS[e.key]) {
    const [dx, dy] = ARROWS[e.key];
    if (hand.piece >= 0 && !hand.down) moveDrag(Math.round(hand.x) + dx * step, Math.round(hand.y) + dy * step);
    else panBy(-dx * pan, -dy * pan);
    e.preventDefault();
    return;
  }
  switch (e.key) {
    case 'Tab': e.preventDefault(); keyGrab(e.shiftKey ? -1 : 1); break;
    case 'Enter':
      e.preventDefault();
      if (hand.piece >= 0 && !hand.down) dropDrag();
      else openChat(true);
      break;
    case 'Escape':
      if (hand.piece >= 0 && !hand.down) releaseDrag();
      else if (!$('lid').hidden) toggleLid(false);
      else if (!$('who').hidden || !$('help').hidden) { $('who').hidden = true; $('help').hidden = true; }
      else showRooms();
      break;
    case '+': case '=': zoomCenter(1.25); break;
    case '-': case '_': zoomCenter(0.8); break;
    case '0': case 'f': case 'F': fit(); break;
    case 'r': case 'R': case ' ': e.preventDefault(); rotate(); break;
    case 'l': case 'L': if (room.lid) toggleLid(); break;
    case 'h': case 'H': askHint(); break;
    case 'n': case 'N': if (room.solvedMs !== null) askNext(); break;
    case 'w': case 'W': toggleWho(); break;
    case 'c': case 'C': openChat(true); break;
    case '?': toggleHelp(); break;
    default: toolKey(e); break;
  }
}

/** Tab: takes the next loose piece (Shift: the one before), or a misplaced one once none is loose. */
function keyGrab(dir) {
  if (hand.down) return;
  if (me.watching) { toast(ERRORS.WATCHING); return; }
  const loose = room.pieces.filter((p) => p && !p.cell && !p.holder && !hidden(lens, room, p));
  const pool = loose.length ? loose : room.pieces.filter((p) => p && p.cell && !p.holder && (room.kind === 'swap' || !placedRight(room, p)));
  if (!pool.length) return;
  const cur = hand.piece;
  if (cur >= 0) releaseDrag();
  pool.sort((a, b) => a.id - b.id);
  let i = pool.findIndex((p) => p.id > cur);
  if (dir < 0) { i = -1; for (let j = pool.length - 1; j >= 0; j--) if (pool[j].id < cur) { i = j; break; } }
  const p = pool[i >= 0 ? i : dir > 0 ? 0 : pool.length - 1];
  hand.lastTouched = p.id;
  startDrag(p, 'key', 0, 0);
  // Bring it into view.
  const s = toScreen(view, p.dx + UNIT / 2, p.dy + UNIT / 2), a = viewArea();
  if (s.x < a.x || s.y < a.y || s.x > a.x + a.w || s.y > a.y + a.h) panBy(a.x + a.w / 2 - s.x, a.y + a.h / 2 - s.y);
}

function resized() {
  resizeCanvas();
  if (view.fitted && pointers.size) refitLater = true;
  else layoutChanged();
  drawLid();
  // A phone turning settles its size over a few frames (bars come and go): lay out again then.
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => { resizeCanvas(); if (!pointers.size) layoutChanged(); }, 300);
}

export function setUpInput() {
  canvas.addEventListener('pointerdown', pointerDown);
  canvas.addEventListener('pointermove', pointerMove);
  canvas.addEventListener('pointerup', (e) => { pointerEnd(e, false); pointersDone(); });
  canvas.addEventListener('pointercancel', (e) => { pointerEnd(e, true); pointersDone(); });
  canvas.addEventListener('lostpointercapture', (e) => { if (pointers.has(e.pointerId)) pointerEnd(e, false); });
  canvas.addEventListener('wheel', wheel, { passive: false });
  canvas.addEventListener('contextmenu', contextMenu);
  document.addEventListener('keydown', keyDown);
  window.addEventListener('resize', resized);
  window.addEventListener('orientationchange', resized);
}
