// The piece in my hand: GRAB, the drags (rounded to table units, at most
// one a frame), DROP or RELEASE, turning it, and keeping its lease while I am
// there (KEEP), with the countdown shown when it is about to go back.

import { clampPos } from './geometry.js';
import { nameOf } from './state.js';
import { endHold, heldText, takeHold } from './parts.js';
import { link, now, req, send } from './link.js';
import { me, room } from './session.js';
import { canvas } from './dom.js';
import { needDraw } from './draw.js';
import { ERRORS, showError, toast } from './notices.js';

// piece: the one held (-1: none); gen: counts holds, so a late reply about an
// old one is told apart; (offX, offY): where on the piece the pointer took it;
// (x, y): where it is now; (sentX, sentY): the last DRAG sent; via: 'pointer'
// or 'key'; down: a pointer is on it; twist: a second finger turning it.
export const hand = { piece: -1, gen: 0, pointerId: null, offX: 0, offY: 0, x: 0, y: 0, sentX: NaN,
  sentY: NaN, lastSent: 0, down: false, via: '', lastKey: 0, twist: null, leaseEnd: 0, lastTouched: -1 };

/** Takes a piece: GRAB now, drags and the drop follow it down the line. */
export function startDrag(p, via, offX, offY) {
  if (me.watching) { toast(ERRORS.WATCHING); return false; }
  if (room.solvedMs !== null) { toast(ERRORS.SOLVED); return false; }
  if (p.holder && p.holder !== me.id) { toast(heldText(room, p, nameOf(room, p.holder))); return false; }
  if (hand.piece >= 0 && hand.piece !== p.id) dropDrag();
  const gen = ++hand.gen;
  hand.piece = p.id; hand.via = via; hand.offX = offX; hand.offY = offY;
  hand.x = p.dx; hand.y = p.dy; hand.sentX = Math.round(p.dx); hand.sentY = Math.round(p.dy);
  hand.lastSent = now(); hand.lastKey = now(); hand.leaseEnd = now() + room.lease;
  // Taken at once on the page (with its part); the server's reply may say otherwise.
  if (!p.holder) takeHold(room, p, me.id, p.dx, p.dy, p.rot);
  req(`GRAB ${p.id}`, null, (code, text) => {
    if (gen !== hand.gen) return true;
    if (code === 'LINK') return true;
    if (p.holder === me.id) endHold(room, p);
    endDrag();
    needDraw();
    showError(code, text);
    return true;
  });
  canvas.classList.add('dragging');
  needDraw();
  return true;
}

export function moveDrag(x, y) {
  // A part stays wholly on the table (the server would refuse the DRAG).
  const q = clampPos(room.table, x, y, room, room.pieces[hand.piece]);
  hand.x = q.x; hand.y = q.y;
  needDraw();
  scheduleFlush();
}

let flushAsked = false;
function scheduleFlush() {
  if (flushAsked) return;
  flushAsked = true;
  requestAnimationFrame(() => { flushAsked = false; flushDrag(); });
}

/** Sends the held piece's position, rounded to table units, if it changed. */
export function flushDrag() {
  if (hand.piece < 0 || !link.up) return;
  const x = Math.round(hand.x), y = Math.round(hand.y);
  if (x === hand.sentX && y === hand.sentY) return;
  const t = now();
  hand.sentX = x; hand.sentY = y; hand.lastSent = t;
  const gen = hand.gen, id = hand.piece;
  req(`DRAG ${id} ${x} ${y}`, (r) => {
    const p = room.pieces[id];
    if (gen === hand.gen) hand.leaseEnd = t + room.lease;
    if (p && gen === hand.gen && p.holder === me.id) p.target = r.target;
    needDraw();
  }, (code) => gen !== hand.gen || code === 'RATE_LIMITED' || code === 'NOT_HOLDER' || code === 'LINK');
}

export function dropDrag() {
  if (hand.piece < 0) return;
  const id = hand.piece, gen = hand.gen;
  if (!link.up) { me.pendingResume = id; hand.down = false; return; }
  hand.sentX = NaN;
  flushDrag();
  req(`DROP ${id}`, (r) => {
    if (r.outcome === 'returned' && gen === hand.gen) needDraw();
  }, (code, text) => {
    if (code === 'NOT_HOLDER' || code === 'LINK') return true;
    showError(code, text);
    return true;
  });
  endDrag();
}

export function releaseDrag() {
  if (hand.piece < 0) return;
  send(`RELEASE ${hand.piece}`, null);
  endDrag();
}

export function endDrag() {
  const id = hand.piece;
  hand.piece = -1; hand.down = false; hand.via = ''; hand.pointerId = null; hand.twist = null;
  hand.gen++;
  canvas.classList.remove('dragging');
  const p = room.pieces[id];
  // Until the server says where it went, the piece stays where it was let go.
  if (p && p.holder === me.id) { p.hx = hand.x; p.hy = hand.y; }
  needDraw();
}

/** Turns the held piece, or a loose piece in place (taken, turned, put down). */
export function rotate(target) {
  if (!room.rotation) { toast(ERRORS.ROTATION_OFF); return; }
  if (me.watching) { toast(ERRORS.WATCHING); return; }
  if (hand.piece >= 0) {
    const t = now(), gen = hand.gen;
    req(`ROTATE ${hand.piece}`, () => { if (gen === hand.gen) hand.leaseEnd = t + room.lease; }, (c) => c === 'LINK');
    hand.lastKey = t; return;
  }
  const p = target || lastTouched();
  if (!p) { toast('Take a piece first, then turn it.'); return; }
  if (p.cell || p.holder) { toast('Take the piece to turn it.'); return; }
  if (room.solvedMs !== null) return;
  req(`GRAB ${p.id}`, () => {
    req(`ROTATE ${p.id}`, () => req(`DROP ${p.id}`), () => { send(`RELEASE ${p.id}`); });
  });
}

function lastTouched() { return hand.lastTouched >= 0 ? room.pieces[hand.lastTouched] : null; }

// Presence: KEEP while the pointer is down on a held piece, or keys came lately.
function present() { return hand.down || (hand.via === 'key' && now() - hand.lastKey < room.lease / 3); }

/** Seconds left of my hold's lease in its last 5 s while no KEEP goes out, else 0. */
export function countdown() {
  if (hand.piece < 0 || present() || !link.up) return 0;
  const left = hand.leaseEnd - now();
  return left > 0 && left <= 5000 ? Math.ceil(left / 1000) : 0;
}

/** Every 250 ms: a KEEP when due, and a redraw near the lease's end (the countdown). */
export function keepHold() {
  if (hand.piece < 0 || !link.up) return;
  const third = room.lease / 3, t = now();
  if (present() && t - hand.lastSent > Math.min(third, 5000)) {
    hand.lastSent = t;
    const gen = hand.gen;
    req(`KEEP ${hand.piece}`, (r) => {
      if (gen === hand.gen) hand.leaseEnd = t + (r.leaseLeft || room.lease);
    }, () => gen !== hand.gen || true);
  }
  if (hand.leaseEnd - t < 6000) needDraw();
}
