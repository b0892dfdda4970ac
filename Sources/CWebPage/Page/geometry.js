// Where things are: the table in its units (4 a cell, PROTOCOL.md), the view
// that maps it to the screen (scale and offset, in CSS pixels), pieces'
// places and outlines, hit testing, fitting and zooming. Pure: numbers in,
// numbers out, so node tests it; the DOM side is view.js and draw.js.

export const UNIT = 4; // table units per cell
export const PAD = 0.3; // a sprite's margin around its cell, for tabs (cells)
export const MAX_SCALE = 160; // at most 640 CSS px a cell

import { clampPart, pointBeside } from './parts.js';

/** Where a piece lies (not in hand): its cell's corner on the board, or its table point. */
export function posOf(room, p) {
  if (p.cell) return { x: room.table.bx + p.c * UNIT, y: room.table.by + p.r * UNIT };
  return { x: p.x, y: p.y };
}

/** Where a piece is drawn heading for: my hand's point while I drag it,
 *  another holder's last drag point, or where it lies; a piece of a held
 *  part, beside its grip. */
export function goal(room, p, me, hand) {
  if (p.holder && p.grip >= 0 && p.grip !== p.id && room.pieces[p.grip]) {
    const g = goal(room, room.pieces[p.grip], me, hand);
    const at = pointBeside(room, p.id, p.grip, g.x, g.y, g.rot);
    return { x: at.x, y: at.y, rot: g.rot };
  }
  if (p.holder === me && hand.piece === p.id) return { x: hand.x, y: hand.y, rot: p.hrot };
  if (p.holder) return { x: p.hx, y: p.hy, rot: p.hrot };
  const q = posOf(room, p);
  return { x: q.x, y: q.y, rot: p.rot };
}

/** Turns toward `rot` (quarter turns) the short way: 3 to 0 is one turn on, not three back. */
export function setRotGoal(p, rot) {
  const cur = ((Math.round(p.rotGoal) % 4) + 4) % 4;
  let d = ((rot - cur) % 4 + 4) % 4;
  if (d === 3) d = -1;
  p.rotGoal = Math.round(p.rotGoal) + d;
}

/** Moves every piece's drawn place and turn a step toward its goal (`dt` ms);
 *  true while any is still on its way. */
export function glide(room, me, hand, dt) {
  const a = 1 - Math.exp(-dt / 55);
  let moving = false, still = false;
  for (const p of room.pieces) {
    if (!p) continue;
    const g = goal(room, p, me, hand);
    let glides = false;
    // My hand's piece (and its part) follows the pointer without lag.
    if (p.holder === me && hand.piece >= 0 && (hand.piece === p.id || p.grip === hand.piece)) { p.dx = g.x; p.dy = g.y; }
    else if (Math.abs(p.dx - g.x) > 0.01 || Math.abs(p.dy - g.y) > 0.01) {
      p.dx += (g.x - p.dx) * a; p.dy += (g.y - p.dy) * a; glides = true;
    } else { p.dx = g.x; p.dy = g.y; }
    if (Math.abs(p.drot - p.rotGoal) > 0.01) { p.drot += (p.rotGoal - p.drot) * a; glides = true; }
    else p.drot = p.rotGoal;
    if (glides) { moving = true; if (!p.holder) still = true; }
  }
  // A piece nobody holds still on its way: the still layer cannot be kept.
  room.stillMoving = still;
  return moving;
}

export function toTable(view, sx, sy) { return { x: (sx - view.ox) / view.scale, y: (sy - view.oy) / view.scale }; }
export function toScreen(view, x, y) { return { x: view.ox + x * view.scale, y: view.oy + y * view.scale }; }

/** A drop target, `r,c` or `-`. */
export function cellTarget(t) {
  if (!t || t === '-') return null;
  const m = /^(\d+),(\d+)$/.exec(t);
  return m ? { r: Number(m[1]), c: Number(m[2]) } : null;
}

/** The nearest point where a piece lies wholly on the table (DRAG elsewhere
 *  is OFF_TABLE); with `grip` (a piece of a part) the whole part does. */
export function clampPos(table, x, y, room, grip) {
  if (room && grip && grip.part >= 0) return clampPart(room, grip, x, y, grip.hrot);
  return { x: Math.min(table.w - UNIT, Math.max(0, x)), y: Math.min(table.h - UNIT, Math.max(0, y)) };
}

// Tabs stick out of the table's edge pieces by up to PAD of a cell: fit leaves room for them.
export const fitMargin = (kind) => (kind === 'jigsaw' ? 2 * PAD * UNIT : 0);

/** The scale that shows the whole table in `area` (the screen left to it). */
export function fitScale(room, area) {
  if (!room.table) return 8;
  const m = fitMargin(room.kind);
  return Math.min((area.w - 16) / (room.table.w + m), (area.h - 16) / (room.table.h + m));
}

/** The view of the whole table, centred in `area`. */
export function fitView(room, area) {
  const scale = fitScale(room, area);
  return { scale, ox: area.x + (area.w - room.table.w * scale) / 2, oy: area.y + (area.h - room.table.h * scale) / 2 };
}

/** The view zoomed by `factor` around screen point (sx, sy), between half the fit and MAX_SCALE. */
export function zoomedView(view, sx, sy, factor, minScale) {
  const scale = Math.min(MAX_SCALE, Math.max(minScale, view.scale * factor));
  const k = scale / view.scale;
  return { scale, ox: sx - (sx - view.ox) * k, oy: sy - (sy - view.oy) * k };
}

/** The offset panned by (dx, dy), keeping `m` px of the table in a `width` × `height` screen. */
export function pannedOffset(view, table, dx, dy, width, height) {
  let ox = view.ox + dx, oy = view.oy + dy;
  if (table) {
    const w = table.w * view.scale, h = table.h * view.scale, m = 60;
    ox = Math.min(width - m, Math.max(m - w, ox));
    oy = Math.min(height - m, Math.max(m - h, oy));
  }
  return { ox, oy };
}

/** Two fingers: the view where the table point under the first midpoint
 *  stays under the fingers, scaled by how far apart they went. */
export function pinchedView(start, a, b, minScale) {
  const d = Math.max(10, Math.hypot(b.x - a.x, b.y - a.y));
  const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
  const scale = Math.min(MAX_SCALE, Math.max(minScale, start.scale * d / start.d0));
  const tx = (start.mx - start.ox) / start.scale, ty = (start.my - start.oy) / start.scale;
  return { scale, ox: mx - tx * scale, oy: my - ty * scale };
}

/** Pieces bottom to top (by z). */
export function zOrder(room) {
  return room.pieces.filter(Boolean).slice().sort((a, b) => a.z - b.z);
}

/** The piece under a screen point: held ones first, then loose, then placed; the topmost of each. */
export function pieceAt(order, view, sx, sy) {
  const t = toTable(view, sx, sy);
  const inside = (p) => t.x >= p.dx && t.x < p.dx + UNIT && t.y >= p.dy && t.y < p.dy + UNIT;
  for (let i = order.length - 1; i >= 0; i--) { const p = order[i]; if (p.holder && inside(p)) return p; }
  for (let i = order.length - 1; i >= 0; i--) { const p = order[i]; if (!p.holder && !p.cell && inside(p)) return p; }
  for (let i = order.length - 1; i >= 0; i--) { const p = order[i]; if (!p.holder && p.cell && inside(p)) return p; }
  return null;
}

// ------------------------------------------------------------ piece shapes
function edgeSign(str, index) {
  const ch = str[index];
  return ch === 't' ? 1 : ch === 'b' ? -1 : 0;
}
/** Tab (+1) or blank (-1) of a piece's right edge, 0 flat (`S edges`). */
export function rightEdge(room, id) {
  const r = Math.floor(id / room.cols), c = id % room.cols;
  if (!room.edges || c >= room.cols - 1) return 0;
  const s = room.edges.right;
  return edgeSign(s, s.length === room.rows * room.cols ? id : r * (room.cols - 1) + c);
}
/** Tab (+1) or blank (-1) of a piece's bottom edge, 0 flat. */
export function bottomEdge(room, id) {
  const r = Math.floor(id / room.cols);
  if (!room.edges || r >= room.rows - 1) return 0;
  return edgeSign(room.edges.bottom, id);
}
/** A small shift of a tab along its edge, the same for both pieces that share it, so tabs do not all line up. */
export function jitter(n) {
  let h = (n * 2654435761) >>> 0;
  h ^= h >>> 15; h = Math.imul(h, 2246822519) >>> 0; h ^= h >>> 13;
  return ((h % 1000) / 1000 - 0.5) * 0.12;
}
/** One edge from (x0,y0) to (x1,y1) (cell units, clockwise), `s` +1 tab out, -1 blank, 0 flat. */
function edge(out, x0, y0, x1, y1, s, b) {
  if (!s) { out.push(['L', x1, y1]); return; }
  const dx = x1 - x0, dy = y1 - y0, nx = dy * s, ny = -dx * s, t = 0.1;
  const P = (u, v) => [x0 + dx * u + nx * v, y0 + dy * u + ny * v];
  const pts = [P(0.2, 0), P(0.5 + b, -t), P(0.5 - t + b, t), P(0.5 - 2 * t + b, 3 * t), P(0.5 + 2 * t + b, 3 * t),
    P(0.5 + t + b, t), P(0.5 + b, -t), P(0.8, 0), [x1, y1]];
  for (let i = 0; i < 9; i += 3) out.push(['C', pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1], pts[i + 2][0], pts[i + 2][1]]);
}
/** A piece's four sides, clockwise from the top: each `[x0, y0, x1, y1, s, b]`
 *  (cell units; `s` +1 tab out, -1 blank, 0 flat; `b` its tab's shift). */
function sides(room, id) {
  const r = Math.floor(id / room.cols), c = id % room.cols, n = room.cols;
  const top = r > 0 ? -bottomEdge(room, id - n) : 0, left = c > 0 ? -rightEdge(room, id - 1) : 0;
  return [[0, 0, 1, 0, top, jitter(2 * (id - n) + 1)], [1, 0, 1, 1, rightEdge(room, id), jitter(2 * id)],
    [1, 1, 0, 1, bottomEdge(room, id), -jitter(2 * id + 1)], [0, 1, 0, 0, left, -jitter(2 * (id - 1))]];
}

/** A piece's outline in its own cell units (0..1, tabs beyond), unrotated:
 *  path steps `['M'|'L', x, y]`, `['C', x1, y1, x2, y2, x, y]`, `['Z']`;
 *  `null` for a square (a swap tile, or edges not known). */
export function outline(room, id) {
  if (room.kind !== 'jigsaw' || !room.edges) return null;
  const out = [['M', 0, 0]];
  for (const s of sides(room, id)) edge(out, ...s);
  out.push(['Z']);
  return out;
}

/** One side of a piece's outline (0 top, 1 right, 2 bottom, 3 left), as
 *  path steps from its first corner: the edges a part shows outside. */
export function sideOutline(room, id, side) {
  if (room.kind !== 'jigsaw' || !room.edges) {
    const corners = [[0, 0], [1, 0], [1, 1], [0, 1]], a = corners[side], b = corners[(side + 1) % 4];
    return [['M', a[0], a[1]], ['L', b[0], b[1]]];
  }
  const s = sides(room, id)[side];
  const out = [['M', s[0], s[1]]];
  edge(out, ...s);
  return out;
}

// ------------------------------------------------------------ resolutions
export const SPRITE_PIXELS = 20e6;
/** A piece sprite's side in device pixels for a cell `cell` device pixels
 *  wide on a `screenPixels` screen of a `pieces`-piece puzzle. */
export function spriteSize(cell, screenPixels, pieces) {
  // Every piece on screen at once stays within SPRITE_PIXELS (about 80 MB):
  // zoomed in, fewer pieces show, so each may be finer.
  const onScreen = Math.max(1, screenPixels / Math.max(1, cell * cell));
  const n = Math.max(1, Math.min(pieces, onScreen * 2));
  const cap = Math.max(16, Math.floor(Math.sqrt(SPRITE_PIXELS / n) / (1 + 2 * PAD)));
  const ladder = [12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384];
  let s = ladder[ladder.length - 1];
  for (const v of ladder) if (v >= cell) { s = v; break; }
  return Math.min(s, cap, 384);
}
/** The width of `/picture` to ask for a board `boardPx` device pixels wide. */
export function pictureWidth(boardPx, rows, cols) {
  // The server draws at most 2048 pixels a side.
  const most = Math.min(2048, Math.floor(2048 * cols / Math.max(1, rows)));
  const steps = [256, 512, 768, 1024, 1536, 2048].filter((w) => w < most).concat([most]);
  for (const s of steps) if (s >= boardPx * 1.05) return s;
  return most;
}
