// Drawing the table on the canvas, a frame when something changed: the board,
// the pieces (each a sprite cut from the picture once per size), drop
// targets, held pieces with their holders' colours and names, the hint, and
// my hold's countdown. Pieces glide to where they are going.

import { PAD, UNIT, cellTarget, glide, spriteSize, zOrder } from './geometry.js';
import { createCutter } from './cutter.js';
import { membersOf, reach, targetCells } from './parts.js';
import { colorOf, nameOf } from './state.js';
import { debug, now } from './link.js';
import { me, room } from './session.js';
import { hand, countdown } from './hand.js';
import { view, screen, resizeCanvas } from './view.js';
import { art, currentPicture } from './pictures.js';
import { updateHud } from './hud.js';
import { ctx } from './dom.js';
import { dimmed, hidden, stackTags } from './lens.js';
import { drawTools, lens } from './tools.js';

// --------------------------------------------------------------- sprites
const cutter = createCutter(() => room, currentPicture);
const { pathOf, outerPathOf, spriteOf } = cutter;
let spriteWanted = 0, spriteTimer = 0;

/** The picture changed: cut the sprites again. */
export function forgetSprites() { cutter.forgetSprites(); }
/** A new puzzle or room: its outlines and sprites. */
export function forgetShapes() { cutter.forgetShapes(); }

function checkSpriteSize() {
  const w = spriteSize(UNIT * view.scale * (window.devicePixelRatio || 1), screen.cw * screen.ch, room.rows * room.cols);
  if (w === cutter.side) return;
  if (!cutter.side) { cutter.resize(w); return; }
  if (w !== spriteWanted) {
    // Zooming goes through many sizes: cut the pieces again once it settles.
    spriteWanted = w;
    clearTimeout(spriteTimer);
    spriteTimer = setTimeout(() => { cutter.resize(spriteWanted); needDraw(); }, 150);
  }
}

// ---------------------------------------------------------------- frames
let frameAsked = false, lastFrame = 0, hudDirty = false, order = [];
const flashes = [];

export function needDraw() {
  if (frameAsked) return;
  frameAsked = true;
  requestAnimationFrame(frame);
}
/** The HUD is brought up to date at the next frame (events come in bursts). */
export function markHudDirty() { hudDirty = true; }

/** Pieces bottom to top, sorted again only when the heights changed. */
export function piecesInOrder() {
  if (room.reordered) { order = zOrder(room); room.reordered = false; }
  return order;
}

/** A cell another player filled, outlined in their colour for half a second. */
export function flashCell(r, c, by) { flashes.push({ r, c, color: colorOf(room, by), until: now() + 500 }); }

function frame(t) {
  frameAsked = false;
  if (hudDirty) { hudDirty = false; updateHud(); }
  const dt = lastFrame ? Math.min(100, t - lastFrame) : 16;
  lastFrame = t;
  const moving = me.inGame ? glide(room, me.id, hand, dt) : false;
  if (me.inGame) draw();
  if (moving || (me.hintUntil && now() < me.hintUntil) || flashes.length) needDraw();
  else lastFrame = 0;
}

/** Where table units land in device pixels on the surface being drawn:
 *  `x` ↦ `ox + x * k` (the screen's view, or a layer's own corner). */
function screenMap() {
  const dpr = screen.dpr;
  return { ox: view.ox * dpr, oy: view.oy * dpr, k: view.scale * dpr };
}

function drawPiece(p, sprite, m) {
  const k = m.k;
  const cx = m.ox + (p.dx + UNIT / 2) * k, cy = m.oy + (p.dy + UNIT / 2) * k;
  const cellPx = UNIT * k, size = cellPx * (1 + 2 * PAD);
  const ang = p.drot * Math.PI / 2;
  if (ang) {
    g.setTransform(Math.cos(ang), Math.sin(ang), -Math.sin(ang), Math.cos(ang), cx, cy);
    g.drawImage(sprite, -size / 2, -size / 2, size, size);
    g.setTransform(1, 0, 0, 1, 0, 0);
  } else {
    g.drawImage(sprite, cx - size / 2, cy - size / 2, size, size);
  }
}

function tracePiece(p, m) {
  // The piece's outline in device pixels, for rings around held pieces.
  const k = m.k, cell = UNIT * k;
  const cx = m.ox + (p.dx + UNIT / 2) * k, cy = m.oy + (p.dy + UNIT / 2) * k;
  const ang = p.drot * Math.PI / 2, cos = Math.cos(ang) * cell, sin = Math.sin(ang) * cell;
  g.setTransform(cos, sin, -sin, cos, cx, cy);
  g.translate(-0.5, -0.5);
}

// ---------------------------------------------------------------- layers
// `g` is the surface being drawn: the screen, or a layer kept between
// frames. The still layer holds everything nobody holds (the table, the
// board, placed and loose pieces): while only held pieces move it is one
// copy a frame, however big the puzzle. A held part is drawn once into a
// layer of its own (it is rigid) and copied where its grip is each frame.
let g = ctx;
const stillCanvas = document.createElement('canvas');
const stillCtx = stillCanvas.getContext('2d');
let stillKey = '';
const partLayers = new Map();

function layerKey(m) {
  return [screen.cw, screen.ch, m.ox, m.oy, m.k, room.version, cutter.epoch, cutter.side, room.lid, !!currentPicture(), lens.filter, lens.found].join('/');
}

/** The table and everything on it that nobody holds, drawn with map `m`. */
function drawStill(m, pieces, visible) {
  const { cw, ch, dpr } = screen, k = m.k, T = room.table;
  const X = (x) => m.ox + x * k, Y = (y) => m.oy + y * k;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.fillStyle = '#10151b';
  g.fillRect(0, 0, cw, ch);
  g.fillStyle = room.kind === 'jigsaw' ? '#2a3f4d' : '#222c36';
  roundRect(X(0), Y(0), T.w * k, T.h * k, Math.min(14 * dpr, k));
  g.fill();
  const bx = X(T.bx), by = Y(T.by), bw = room.cols * UNIT * k, bh = room.rows * UNIT * k;
  g.fillStyle = '#141c24';
  g.fillRect(bx, by, bw, bh);
  const pic = currentPicture();
  if (pic && room.lid && room.kind === 'jigsaw') {
    g.globalAlpha = 0.2;
    g.drawImage(pic, bx, by, bw, bh);
    g.globalAlpha = 1;
  }
  if (UNIT * k >= 10) {
    g.strokeStyle = 'rgba(255,255,255,0.07)';
    g.lineWidth = 1;
    g.beginPath();
    for (let c = 1; c < room.cols; c++) { const x = Math.round(bx + c * UNIT * k) + 0.5; g.moveTo(x, by); g.lineTo(x, by + bh); }
    for (let r = 1; r < room.rows; r++) { const y = Math.round(by + r * UNIT * k) + 0.5; g.moveTo(bx, y); g.lineTo(bx + bw, y); }
    g.stroke();
  }
  g.strokeStyle = 'rgba(255,255,255,0.25)';
  g.lineWidth = Math.max(1, dpr);
  g.strokeRect(bx - 0.5, by - 0.5, bw + 1, bh + 1);
  // Pieces: placed, then loose by height; the player's own view (tools.js)
  // dims placed ones and leaves loose ones out.
  const shown = (p) => visible(p) && (lens.filter === 'all' || !hidden(lens, room, p));
  for (const p of pieces) {
    if (!p.cell || p.holder || !visible(p)) continue;
    if (lens.filter !== 'all' && dimmed(lens, room, p)) g.globalAlpha = 0.3;
    drawPiece(p, spriteOf(p, 1), m);
    g.globalAlpha = 1;
  }
  for (const p of pieces) if (!p.cell && !p.holder && shown(p)) drawPiece(p, spriteOf(p, p.part >= 0 ? 2 : 0), m);
  // Loose parts: one dark outline around each, none between its pieces.
  for (const p of pieces) if (!p.cell && !p.holder && p.part >= 0 && shown(p)) strokeOuter(p, 'rgba(0,0,0,0.8)', 1.5 * dpr / (UNIT * k), m);
}

/** A held part drawn once into its own layer (its pieces and its holder's
 *  ring), copied each frame at its grip: true when it was. Not while it
 *  turns (its pieces swing) nor when the layer would be too big (zoomed
 *  far in: few of its pieces show, and they are drawn one by one). */
function drawHeldPart(grip, m) {
  const turn = grip.drot;
  if (Math.abs(turn - Math.round(turn)) > 0.001) return false;
  const rot = ((Math.round(turn) % 4) + 4) % 4, k = m.k;
  const members = membersOf(room, grip);
  const b = reach(room, grip, rot), pad = UNIT * (PAD + 0.25);
  const left = b.left - pad, top = b.top - pad;
  const w = Math.ceil((b.right - b.left + UNIT + 2 * pad) * k), h = Math.ceil((b.bottom - b.top + UNIT + 2 * pad) * k);
  if (w > 8192 || h > 8192 || w * h > 24e6) return false;
  const mine = grip.holder === me.id;
  const key = [rot, k, members.length, cutter.epoch, cutter.side, grip.holder, colorOf(room, grip.holder), !!currentPicture()].join('/');
  let layer = partLayers.get(grip.id);
  if (!layer || layer.key !== key) {
    const canvas = layer ? layer.canvas : document.createElement('canvas');
    canvas.width = w; canvas.height = h;
    layer = { key, canvas, ctx: canvas.getContext('2d') };
    partLayers.set(grip.id, layer);
    // Drawn at the part's place relative to its grip, as if the grip lay at 0,0.
    const lm = { ox: -left * k, oy: -top * k, k };
    const at = (q) => ({ ...q, dx: q.dx - grip.dx, dy: q.dy - grip.dy, drot: rot });
    const outer = g;
    g = layer.ctx;
    g.clearRect(0, 0, w, h);
    for (const q of members) drawPiece(at(q), spriteOf(q, 2), lm);
    for (const q of members) strokeOuter(at(q), colorOf(room, grip.holder), (mine ? 3 : 2.5) * screen.dpr / (UNIT * k), lm);
    g = outer;
  }
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(layer.canvas, m.ox + (grip.dx + left) * k, m.oy + (grip.dy + top) * k);
  return true;
}

function draw() {
  const t0 = now();
  resizeCanvas();
  checkSpriteSize();
  const { cw, ch, dpr } = screen;
  g = ctx;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (!room.joined || !room.table) {
    ctx.fillStyle = '#10151b';
    ctx.fillRect(0, 0, cw, ch);
    return;
  }
  const m = screenMap(), k = m.k, T = room.table;
  const X = (x) => m.ox + x * k, Y = (y) => m.oy + y * k;
  const pieces = piecesInOrder();
  const margin = UNIT * k * (0.5 + PAD);
  const visible = (p) => {
    const x = X(p.dx), y = Y(p.dy);
    return x + UNIT * k + margin > 0 && y + UNIT * k + margin > 0 && x - margin < cw && y - margin < ch;
  };
  // The still layer, drawn again only when something in it changed.
  const key = layerKey(m);
  if (key !== stillKey || room.stillMoving) {
    if (stillCanvas.width !== cw || stillCanvas.height !== ch) { stillCanvas.width = cw; stillCanvas.height = ch; }
    g = stillCtx;
    drawStill(m, pieces, visible);
    g = ctx;
    stillKey = room.stillMoving ? '' : key;
  }
  ctx.drawImage(stillCanvas, 0, 0);
  const bx = X(T.bx), by = Y(T.by), bw = room.cols * UNIT * k, bh = room.rows * UNIT * k;
  const pic = currentPicture();
  // Drop targets, in each holder's colour: for a part, every cell it would fill.
  // The fill lies under the pieces; the dashed outlines are drawn over them
  // afterwards, so a target stays seen while a piece or part lies right over it.
  const held = pieces.filter((p) => p.holder);
  const outlines = [];
  for (const p of held) {
    const t = cellTarget(p.target);
    if (!t || (p.part >= 0 && p.grip !== p.id)) continue;
    const col = colorOf(room, p.holder);
    const s = UNIT * k;
    ctx.fillStyle = col;
    ctx.globalAlpha = p.holder === me.id ? 0.35 : 0.22;
    const cells = p.part >= 0 ? targetCells(room, p, t) : [t];
    for (const c of cells) ctx.fillRect(X(T.bx + c.c * UNIT), Y(T.by + c.r * UNIT), s, s);
    ctx.globalAlpha = 1;
    outlines.push({ col, cells });
  }
  while (flashes.length && flashes[0].until <= now()) flashes.shift();
  for (const f of flashes) {
    const left = f.until - now();
    if (left <= 0) continue;
    ctx.globalAlpha = Math.min(1, left / 300) * 0.6;
    ctx.strokeStyle = f.color;
    ctx.lineWidth = Math.max(2, 3 * dpr);
    ctx.strokeRect(X(T.bx + f.c * UNIT), Y(T.by + f.r * UNIT), UNIT * k, UNIT * k);
    ctx.globalAlpha = 1;
  }
  held.sort((a, b) => (a.holder === me.id) - (b.holder === me.id) || a.z - b.z);
  // A soft shadow lifts a held piece; with many held (a crowd), only your own.
  const singles = held.filter((p) => p.part < 0);
  const shadows = singles.length <= 12;
  // Held parts: each from its layer (or piece by piece, then one ring around it).
  const drawnParts = new Set();
  for (const p of held) {
    if (p.part < 0 || drawnParts.has(p.part) || p.grip !== p.id) continue;
    drawnParts.add(p.part);
    if (drawHeldPart(p, m)) continue;
    const members = membersOf(room, p);
    for (const q of members) if (visible(q)) drawPiece(q, spriteOf(q, 2), m);
    for (const q of members) if (visible(q)) strokeOuter(q, colorOf(room, p.holder), (p.holder === me.id ? 3 : 2.5) * dpr / (UNIT * k), m);
  }
  for (const id of partLayers.keys()) if (!drawnParts.has(room.pieces[id] ? room.pieces[id].part : -1)) partLayers.delete(id);
  for (const p of singles) {
    if (!visible(p)) continue;
    const sprite = spriteOf(p, room.kind === 'jigsaw' ? 0 : 1);
    if (shadows || p.holder === me.id) {
      ctx.shadowColor = 'rgba(0,0,0,0.55)';
      ctx.shadowBlur = 14 * dpr;
      ctx.shadowOffsetY = 5 * dpr;
    }
    drawPiece(p, sprite, m);
    ctx.shadowColor = 'transparent'; ctx.shadowBlur = 0; ctx.shadowOffsetY = 0;
    // A ring in the holder's colour.
    tracePiece(p, m);
    ctx.strokeStyle = colorOf(room, p.holder);
    ctx.lineWidth = (p.holder === me.id ? 3 : 2.5) * dpr / (UNIT * k);
    ctx.stroke(pathOf(p.id));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }
  // The targets' dashed outlines, over the held pieces.
  ctx.lineWidth = Math.max(2, 3 * dpr);
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  for (const { col, cells } of outlines) {
    ctx.strokeStyle = col;
    const s = UNIT * k;
    for (const c of cells) {
      const x = X(T.bx + c.c * UNIT), y = Y(T.by + c.r * UNIT);
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, s - ctx.lineWidth, s - ctx.lineWidth);
    }
  }
  ctx.setLineDash([]);
  // The hint: the whole picture over the board for a moment.
  if (me.hintUntil && pic) {
    const left = me.hintUntil - now();
    if (left > 0) {
      ctx.globalAlpha = Math.min(1, left / 300) * 0.92;
      ctx.drawImage(pic, bx, by, bw, bh);
      ctx.globalAlpha = 1;
    } else me.hintUntil = 0;
  }
  // Names by the pieces other players hold, stacked where they would overlap.
  ctx.font = `600 ${12 * dpr}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  const tags = [];
  for (const p of held) {
    // One name a hold: by a part's grip only.
    if (p.holder === me.id || (p.part >= 0 && p.grip !== p.id)) continue;
    const label = nameOf(room, p.holder);
    const w = ctx.measureText(label).width + 12 * dpr, h = 20 * dpr;
    tags.push({ label, holder: p.holder, w, h, x: X(p.dx + UNIT / 2) - w / 2, y: Y(p.dy) - h - UNIT * k * 0.12 - 2 * dpr });
  }
  const stacked = stackTags(tags, 2 * dpr);
  for (const t of stacked) {
    ctx.fillStyle = colorOf(room, t.holder);
    roundRect(t.x, t.y, t.w, t.h, 6 * dpr);
    ctx.fill();
    ctx.fillStyle = '#111';
    ctx.fillText(t.label, t.x + 6 * dpr, t.y + t.h / 2 + dpr);
  }
  debug.tags = stacked.map((t) => ({ x: t.x / dpr, y: t.y / dpr, w: t.w / dpr, h: t.h / dpr }));
  drawTools(ctx, dpr, pieces);
  const cd = countdown(), mine = room.pieces[hand.piece];
  if (cd && mine) {
    const label = `${cd}`, r = 13 * dpr;
    const x = X(mine.dx + UNIT) + 2 * dpr, y = Y(mine.dy) - 2 * dpr;
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = cd <= 2 ? '#e6194b' : '#f58231'; ctx.fill();
    ctx.fillStyle = '#fff'; ctx.textAlign = 'center';
    ctx.font = `700 ${15 * dpr}px system-ui, sans-serif`;
    ctx.fillText(label, x, y + dpr);
    ctx.textAlign = 'start';
  }
  const dtDraw = now() - t0;
  // Milestones since the page started loading (performance.now()'s origin).
  if (!debug.firstDrawAt) debug.firstDrawAt = now();
  if (!debug.sharpDrawAt && art.sharp) debug.sharpDrawAt = now();
  debug.frames++;
  debug.drawTimes.push(dtDraw);
  if (debug.drawTimes.length > 600) debug.drawTimes.splice(0, 300);
}

/** Strokes the sides of `p` that face no piece of its part (its part's outline there). */
function strokeOuter(p, color, width, m) {
  const path = outerPathOf(p);
  if (!path) return;
  tracePiece(p, m);
  g.strokeStyle = color;
  g.lineWidth = width;
  g.stroke(path);
  g.setTransform(1, 0, 0, 1, 0, 0);
}

function roundRect(x, y, w, h, r) {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}
