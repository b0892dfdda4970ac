// What one player chooses to see on a big table, in their own view only (the
// room sees nothing of it), as the terminal's /edges, /loose, /all, /find N,
// piece numbers, rulers and mini-map: the choices, and the math of what they
// draw (ruler marks, the map's box, name tags that do not overlap, how fast
// the view scrolls under a piece carried to the screen's edge). Pure: node
// tests it; the DOM side is tools.js and edgescroll.js.

import { UNIT } from './geometry.js';

/** filter: 'all', 'edges' (other loose pieces hidden, other placed ones
 *  dimmed) or 'loose' (placed ones dimmed); found: the piece /find marked
 *  (-1: none); numbers, rulers, map: shown or not. */
export function createLens() {
  return { filter: 'all', found: -1, numbers: false, rulers: true, map: true };
}

/** Whether a piece's home cell (piece N: row N div cols, column N mod cols) is on the board's border. */
export function isEdge(room, id) {
  const r = Math.floor(id / room.cols), c = id % room.cols;
  return r === 0 || c === 0 || r === room.rows - 1 || c === room.cols - 1;
}

/** Whether a piece is left out of the view (and out of reach of a press):
 *  with edges only, a loose piece that is no edge piece, unless held or marked. */
export function hidden(lens, room, p) {
  return lens.filter === 'edges' && !p.cell && !p.holder && p.id !== lens.found && !isEdge(room, p.id);
}

/** Whether a placed piece is drawn dimmed. */
export function dimmed(lens, room, p) {
  if (!p.cell || p.holder) return false;
  return lens.filter === 'loose' || (lens.filter === 'edges' && !isEdge(room, p.id));
}

/** The /find mark shows while its piece is off the board (or in a hand). */
export function marked(lens, room) {
  const p = lens.found >= 0 ? room.pieces[lens.found] : null;
  return p && (!p.cell || p.holder) ? p : null;
}

/** Looks for piece `text` (a number): marks it, or says where it is or why
 *  not. Returns `{ text, error, piece }` (piece: the one to bring into view). */
export function find(lens, room, text) {
  const s = String(text).trim().replace(/^#/, '');
  const total = room.rows * room.cols;
  if (s === '') { lens.found = -1; return { text: 'Find mark cleared.', error: false, piece: null }; }
  if (!/^\d+$/.test(s) || Number(s) >= total) return { text: `No piece ${s} here: pieces are 0 to ${total - 1}.`, error: true, piece: null };
  const p = room.pieces[Number(s)];
  if (!p) return { text: `No piece ${s} here: pieces are 0 to ${total - 1}.`, error: true, piece: null };
  if (p.cell && !p.holder) {
    lens.found = -1;
    return { text: `Piece ${p.id} is on the board at row ${p.r}, column ${p.c}.`, error: false, piece: p };
  }
  lens.found = p.id;
  return { text: `Piece ${p.id} marked in yellow.`, error: false, piece: p };
}

/** The filter a key or button sets, and what it says. */
export function setFilter(lens, filter) {
  lens.filter = filter;
  return filter === 'edges' ? 'Edge pieces only: the others on the table are hidden, placed ones dimmed.'
    : filter === 'loose' ? 'Loose pieces: placed ones dimmed.' : 'Every piece.';
}

/** Ruler marks for the board's rows and columns within `area` (screen
 *  px): `{ cols: [{ n, at }], rows: [{ n, at }], step }`, a label every
 *  `step` cells (1, 2, 5, 10, ...) so labels `minGap` px apart never touch;
 *  none when a cell is too small to tell apart (< 6 px). */
export function rulerMarks(view, table, rows, cols, area, minGap = 28) {
  const cell = UNIT * view.scale;
  const out = { cols: [], rows: [], step: 0 };
  if (!table || cell < 6) return out;
  const steps = [1, 2, 5, 10, 20, 25, 50, 100];
  const step = steps.find((s) => s * cell >= minGap) || 100;
  out.step = step;
  const bx = view.ox + table.bx * view.scale, by = view.oy + table.by * view.scale;
  for (let c = 0; c < cols; c += step) {
    const at = bx + (c + 0.5) * cell;
    if (at >= area.x && at <= area.x + area.w) out.cols.push({ n: c, at });
  }
  for (let r = 0; r < rows; r += step) {
    const at = by + (r + 0.5) * cell;
    if (at >= area.y && at <= area.y + area.h) out.rows.push({ n: r, at });
  }
  return out;
}

/** The mini-map in the bottom right of `area` (clear of the solved banner and the bar): null while the whole table is
 *  in sight; else its box `{ x, y, w, h, k }` (k: px a table unit) and the
 *  view's rectangle on it `{ vx, vy, vw, vh }` (clipped to the map). */
export function mapBox(view, table, area, most) {
  if (!table) return null;
  const left = view.ox, top = view.oy, right = view.ox + table.w * view.scale, bottom = view.oy + table.h * view.scale;
  if (left >= area.x - 1 && top >= area.y - 1 && right <= area.x + area.w + 1 && bottom <= area.y + area.h + 1) return null;
  const side = Math.max(60, Math.min(most, area.w * 0.34, area.h * 0.34));
  const k = side / Math.max(table.w, table.h);
  const w = table.w * k, h = table.h * k;
  const x = area.x + area.w - w - 8, y = area.y + area.h - h - 8;
  const t0x = (area.x - view.ox) / view.scale, t0y = (area.y - view.oy) / view.scale;
  const t1x = t0x + area.w / view.scale, t1y = t0y + area.h / view.scale;
  const cx = (v) => Math.min(table.w, Math.max(0, v)), cy = (v) => Math.min(table.h, Math.max(0, v));
  return { x, y, w, h, k, vx: x + cx(t0x) * k, vy: y + cy(t0y) * k, vw: (cx(t1x) - cx(t0x)) * k, vh: (cy(t1y) - cy(t0y)) * k };
}

/** Whether screen point (sx, sy) is on the map (with a finger's margin). */
export function onMap(box, sx, sy, margin = 6) {
  return !!box && sx >= box.x - margin && sx <= box.x + box.w + margin && sy >= box.y - margin && sy <= box.y + box.h + margin;
}

/** The view's offset that centres table point (tx, ty) in `area`, at its
 *  scale; with `table`, no further than leaves no empty band along an edge
 *  of a table bigger than the area (a piece near its edge is off-centre). */
export function centredOn(view, area, tx, ty, table) {
  let ox = area.x + area.w / 2 - tx * view.scale, oy = area.y + area.h / 2 - ty * view.scale;
  if (table) {
    const w = table.w * view.scale, h = table.h * view.scale;
    if (w > area.w) ox = Math.min(area.x, Math.max(area.x + area.w - w, ox));
    if (h > area.h) oy = Math.min(area.y, Math.max(area.y + area.h - h, oy));
  }
  return { ox, oy };
}

/** The table point under map point (sx, sy). */
export function mapToTable(box, table, sx, sy) {
  return { x: Math.min(table.w, Math.max(0, (sx - box.x) / box.k)), y: Math.min(table.h, Math.max(0, (sy - box.y) / box.k)) };
}

/** Name tags `{ x, y, w, h }` (wanted places, screen px) moved up, one
 *  above the other, until none overlaps one placed before it (most `h`
 *  apart a step): several players holding pieces close together. */
export function stackTags(tags, gap = 2) {
  const placed = [];
  for (const t of tags) {
    let y = t.y;
    for (let moved = true, n = 0; moved && n < 50; n++) {
      moved = false;
      for (const o of placed) {
        if (t.x < o.x + o.w + gap && o.x < t.x + t.w + gap && y < o.y + o.h + gap && o.y < y + t.h + gap) {
          y = o.y - t.h - gap; moved = true;
        }
      }
    }
    const out = { ...t, y };
    placed.push(out);
  }
  return placed;
}

/** How fast the view moves (px a second, each axis: +x the table slides
 *  left, the view going right) while a held piece's pointer is at `pt`:
 *  0 outside a `zone` px band along `area`'s edges, growing (squared) to
 *  `most` at the edge and beyond; 0 on an axis where the table's edge
 *  (`tableRect`, screen px) is already in sight. */
export function edgeVelocity(pt, area, tableRect, zone, most) {
  const speed = (d) => { const f = Math.min(1, Math.max(0, 1 - d / zone)); return most * f * f; };
  let vx = 0, vy = 0;
  const dl = pt.x - area.x, dr = area.x + area.w - pt.x, dt = pt.y - area.y, db = area.y + area.h - pt.y;
  if (dr < zone && tableRect.x + tableRect.w > area.x + area.w) vx = speed(dr);
  else if (dl < zone && tableRect.x < area.x) vx = -speed(dl);
  if (db < zone && tableRect.y + tableRect.h > area.y + area.h) vy = speed(db);
  else if (dt < zone && tableRect.y < area.y) vy = -speed(dt);
  return { vx, vy };
}

/** The chat's line: at most `most` bytes of UTF-8 (the request line's limit
 *  less `SAY `), whitespace runs as one space. `over`: bytes too many. */
export function chatLine(text, most) {
  const line = text.replace(/\s+/g, ' ').trim();
  const bytes = new TextEncoder().encode(line).length;
  return { line, bytes, over: Math.max(0, bytes - most) };
}
