// Parts: pieces joined on the table that move as one (PROTOCOL.md, *Parts*).
// The server decides every join; the page follows its lines: `S part`
// records, and the `grabbed`, `placed` and `merged` events, which move a
// whole part. A part is named by its lowest piece; every piece of it lies
// beside the others as in the picture, at one rotation. Pure (no DOM).

import { UNIT } from './geometry.js';

/** Where `member` lies beside `grip` when both are turned `rot` quarter
 *  turns clockwise, in cells: its place in the picture, turned. */
export function cellOffset(room, member, grip, rot) {
  let dx = (member % room.cols) - (grip % room.cols), dy = Math.floor(member / room.cols) - Math.floor(grip / room.cols);
  for (let i = 0; i < (((rot % 4) + 4) % 4); i++) { const t = dx; dx = -dy; dy = t; }
  return { dx, dy };
}

/** The pieces that move with `p`: its part's, or itself alone. */
export function membersOf(room, p) {
  if (p.part < 0) return [p];
  const ids = room.parts.get(p.part);
  return ids ? ids.map((id) => room.pieces[id]).filter(Boolean) : [p];
}

/** What a press on someone else's hold says: the piece, or the whole part
 *  it is joined in (grabbing any of it would take all of it). */
export function heldText(room, p, holderName) {
  const n = membersOf(room, p).length;
  return n > 1 ? `This part (${n} pieces, with piece ${p.id}) is held by ${holderName}.` : `Piece ${p.id} is held by ${holderName}.`;
}

/** The table point of `member` when the part's grip lies at (x, y) turned `rot`. */
export function pointBeside(room, member, grip, x, y, rot) {
  const o = cellOffset(room, member, grip, rot);
  return { x: x + o.dx * UNIT, y: y + o.dy * UNIT };
}

/** Someone (`holder`) took `p` and every piece joined to it; `p` is the grip,
 *  lifted from (x, y) at `rot`. The others follow the grip's hold. */
export function takeHold(room, p, holder, x, y, rot) {
  for (const q of membersOf(room, p)) {
    q.holder = holder; q.grip = p.id; q.target = '-'; q.hrot = rot;
    q.z = ++room.zTop;
  }
  p.hx = x; p.hy = y;
  room.reordered = true;
  room.version++;
}

/** The hold on `p`'s part ended: every piece of it is loose again where it lay. */
export function endHold(room, p) {
  for (const q of membersOf(room, p)) { q.holder = 0; q.grip = -1; q.target = '-'; }
  room.version++;
}

/** `placed`: the grip `p` lands in cell (r, c) or at table point (x, y) at
 *  `rot`, and every piece joined to it beside it; into the board the part
 *  comes apart. Returns the pieces that moved. */
export function placePart(room, p, at, rot) {
  const members = membersOf(room, p), part = p.part;
  for (const q of members) {
    const o = cellOffset(room, q.id, p.id, rot);
    if (at.cell) { q.cell = true; q.r = at.row + o.dy; q.c = at.col + o.dx; q.part = -1; }
    else { q.cell = false; q.x = at.x + o.dx * UNIT; q.y = at.y + o.dy * UNIT; q.z = ++room.zTop; }
    q.rot = rot; q.holder = 0; q.grip = -1; q.target = '-';
  }
  if (at.cell && part >= 0) room.parts.delete(part);
  if (!at.cell) room.reordered = true;
  return members;
}

/** `merged`: the part of `other` moves to lie exactly beside `p` as in the
 *  picture, then the two parts are one, named by its lowest piece. */
export function mergeParts(room, p, other) {
  const want = pointBeside(room, other.id, p.id, p.x, p.y, p.rot);
  const dx = want.x - other.x, dy = want.y - other.y;
  const theirs = membersOf(room, other);
  for (const q of theirs) { q.x += dx; q.y += dy; }
  const ids = membersOf(room, p).map((q) => q.id).concat(theirs.map((q) => q.id)).sort((a, b) => a - b);
  if (p.part >= 0) room.parts.delete(p.part);
  if (other.part >= 0) room.parts.delete(other.part);
  const id = ids[0];
  for (const m of ids) room.pieces[m].part = id;
  room.parts.set(id, ids);
  return id;
}

/** A snapshot's parts (`S part` records, each `{ id, members }`): the pieces
 *  the compact form left out lie beside the part's lowest piece. */
export function adoptParts(room, records, newPiece) {
  room.parts = new Map();
  for (const rec of records) {
    const first = room.pieces[rec.id];
    if (!first || first.cell || rec.members[0] !== rec.id) continue;
    for (const m of rec.members) {
      let q = room.pieces[m];
      if (!q) {
        q = newPiece(m);
        const at = pointBeside(room, m, rec.id, first.x, first.y, first.rot);
        q.x = at.x; q.y = at.y; q.rot = first.rot;
        room.pieces[m] = q;
      }
      q.part = rec.id;
    }
    room.parts.set(rec.id, rec.members.slice());
  }
}

/** After a snapshot's holds: a held grip's part is held with it. */
export function spreadHolds(room) {
  for (const p of room.pieces) {
    if (p && p.holder && p.part >= 0 && p.grip === p.id) takeHold(room, p, p.holder, p.hx, p.hy, p.hrot);
  }
}

/** How far the pieces of `grip`'s part reach from the grip at `rot`, in
 *  table units: `{ left, top, right, bottom }` (0 for a piece alone). */
export function reach(room, grip, rot) {
  const box = { left: 0, top: 0, right: 0, bottom: 0 };
  for (const q of membersOf(room, grip)) {
    const o = cellOffset(room, q.id, grip.id, rot);
    box.left = Math.min(box.left, o.dx * UNIT); box.right = Math.max(box.right, o.dx * UNIT);
    box.top = Math.min(box.top, o.dy * UNIT); box.bottom = Math.max(box.bottom, o.dy * UNIT);
  }
  return box;
}

/** The nearest grip point where every piece of its part lies on the table
 *  (the server refuses a DRAG that puts one off: OFF_TABLE). */
export function clampPart(room, grip, x, y, rot) {
  const b = reach(room, grip, rot), t = room.table;
  return {
    x: Math.min(t.w - UNIT - b.right, Math.max(-b.left, x)),
    y: Math.min(t.h - UNIT - b.bottom, Math.max(-b.top, y)),
  };
}

/** The board cells a held part would go into: its grip's target and each
 *  other piece's cell beside it (PROTOCOL.md: every one is highlighted). */
export function targetCells(room, grip, target) {
  const cells = [];
  for (const q of membersOf(room, grip)) {
    const o = cellOffset(room, q.id, grip.id, grip.hrot);
    cells.push({ r: target.r + o.dy, c: target.c + o.dx });
  }
  return cells;
}

/** Whether `p`'s neighbour on `side` (0 top, 1 right, 2 bottom, 3 left, in
 *  the picture) is in the same part: that edge is inside the part, no seam. */
export function joinedOn(room, p, side) {
  if (p.part < 0) return false;
  const r = Math.floor(p.id / room.cols), c = p.id % room.cols;
  const n = side === 0 ? (r > 0 ? p.id - room.cols : -1) : side === 1 ? (c < room.cols - 1 ? p.id + 1 : -1)
    : side === 2 ? (r < room.rows - 1 ? p.id + room.cols : -1) : (c > 0 ? p.id - 1 : -1);
  return n >= 0 && room.pieces[n] && room.pieces[n].part === p.part;
}
