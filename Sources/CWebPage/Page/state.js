// The room as the page knows it: built from a snapshot's records, then
// changed by events in order. The page keeps no copy of the game's rules:
// where pieces lie, who holds what, the drop target, the table's size and
// every piece's edges all come from the server. Pure (no DOM): applying an
// event returns what the screen should say about it, and node tests both.

import { UNIT, goal, posOf, setRotGoal } from './geometry.js';
import { pieceIds } from './wire.js';
import { adoptParts, endHold, membersOf, mergeParts, placePart, spreadHolds, takeHold } from './parts.js';

export const PALETTE = ['#e6194b', '#3cb44b', '#4f7dff', '#f58231', '#b45cff', '#42d4f4',
  '#f032e6', '#bfef45', '#fabed4', '#2fb5a6', '#dcbeff', '#c48a3f'];

const STILL_CHANGES = new Set(['grabbed', 'placed', 'merged', 'swapped', 'released', 'expired', 'returned', 'solved', 'next']);

/** Where this page's player played last on this server (localStorage key). */
export const roomKey = (host, name) => `puzzle-room:room:${host}:${name}`;

/** The room a page opened at the server's address goes to: the one its
 *  address names (`#ROOM`), else the one its player was in last (kept in
 *  localStorage), else none (the room list). `valid` tells a room name. */
export function startRoom(hashRoom, storedRoom, valid) {
  if (hashRoom && valid(hashRoom)) return { room: hashRoom, from: 'address' };
  if (storedRoom && valid(storedRoom)) return { room: storedRoom, from: 'storage' };
  return null;
}

export function createRoom() {
  return {
    joined: false, name: '', kind: 'jigsaw', rows: 0, cols: 0, rotation: false, puzzle: 0, seq: 0, run: '',
    lease: 30000, hintMs: 2000, lid: false, hintUsed: false,
    // The puzzle clock: `elapsed` ms at page time `elapsedAt`, running or not; the solve's time once solved.
    elapsed: 0, elapsedAt: 0, running: false, solvedMs: null,
    table: null, edges: null, pieces: [], players: new Map(), watchers: new Map(),
    // Parts (pieces joined on the table): part id (its lowest piece) to its pieces, sorted.
    parts: new Map(),
    // Counts changes to what lies still (the drawing keeps a layer of it
    // between frames); stillMoving: a piece nobody holds is gliding.
    version: 0, stillMoving: false,
    // Pieces' heights: the last taken or put on the table is on top. `reordered` says the z order changed.
    zTop: 0, reordered: true,
    // The snapshot's picture: its size and hash (compact form), or its `S px` rows (full form).
    picture: { width: 0, height: 0, hash: '', rows: [] },
  };
}

export function newPiece(id) {
  // (r, c) or (x, y): where it lies; holder, (hx, hy), hrot, target: in hand;
  // (dx, dy), drot: where it is drawn now, gliding toward its goal (rotGoal);
  // part: the part it is joined in (-1: none); grip: while its part is held,
  // the piece the hold is on (holder, hrot and target are copied to every piece).
  return { id, cell: false, r: 0, c: 0, x: 0, y: 0, rot: 0, holder: 0, hx: 0, hy: 0, hrot: 0,
    target: '-', z: 0, dx: 0, dy: 0, drot: 0, rotGoal: 0, part: -1, grip: -1 };
}

/** The start layouts a page keeps are filed by seed, puzzle and piece count. */
export function layoutKey(records) {
  const room = records.find((r) => r.kind === 'room');
  if (!room) return null;
  return `${room.values.seed}/${room.values.puzzle}/${room.rows * room.cols}`;
}

/** Replaces the room with a JOIN/WATCH/SYNC snapshot: its records and reply
 *  (`parseReply`). `layouts` has the start layouts by `layoutKey`; `me` is my
 *  player id, `hand` the piece I drag ({ piece, x, y }), `now` page time.
 *  Returns `{ leaseLeft }`: ms left of my hold's lease (null: I hold nothing). */
export function applySnapshot(room, records, reply, { layouts, me, hand, now }) {
  const pieces = [];
  const players = new Map(), watchers = new Map();
  let table = null, edges = null, starts = null, leaseLeft = null;
  // Parts and holds are taken once every piece is known (the compact form
  // leaves a part's other pieces out: they lie beside its lowest).
  const partRecords = [], holds = [];
  const picture = { width: 0, height: 0, hash: '', rows: [] };
  for (const rec of records) {
    switch (rec.kind) {
      case 'room': {
        const v = rec.values;
        room.kind = rec.roomKind; room.rows = rec.rows; room.cols = rec.cols;
        room.rotation = v.rotation === 'on';
        room.puzzle = Number(v.puzzle); room.lease = Number(v.lease) || 30000; room.hintMs = Number(v.hint) || 0;
        room.elapsed = Number(v.elapsed) || 0; room.elapsedAt = now;
        room.solvedMs = v.solved && v.solved !== '-' ? Number(v.solved) : null;
        room.running = v.clock ? v.clock === 'running' : true;
        room.lid = v.lid ? v.lid === 'on' : room.kind === 'jigsaw';
        room.name = rec.name;
        break;
      }
      case 'player':
        players.set(rec.id, { id: rec.id, moves: rec.moves, hintUsed: rec.hintUsed, name: rec.name, slot: -1, present: true });
        break;
      case 'watcher': watchers.set(rec.id, rec.name); break;
      case 'color': { const p = players.get(rec.id); if (p) p.slot = rec.slot; break; }
      case 'absent':
        players.set(rec.id, { id: rec.id, moves: rec.moves, hintUsed: rec.hintUsed, name: rec.name, slot: -1, present: false });
        break;
      case 'piece': {
        const p = newPiece(rec.id);
        if (rec.cell) { p.cell = true; p.r = rec.row; p.c = rec.col; } else { p.cell = false; p.x = rec.x; p.y = rec.y; }
        p.rot = rec.rotation;
        pieces[rec.id] = p;
        break;
      }
      case 'hold': holds.push(rec); break;
      case 'part': partRecords.push(rec); break;
      case 'table': table = { w: rec.width, h: rec.height, bx: rec.boardX, by: rec.boardY }; break;
      case 'edges': edges = { right: rec.right, bottom: rec.bottom }; break;
      case 'picture': picture.width = rec.width; picture.height = rec.height; picture.hash = rec.hash; break;
      case 'pieces': {
        // The compact form's ranges: home (its own cell, unturned), or where
        // the puzzle's start layout (LAYOUT) put it.
        const home = rec.set === 'home';
        if (!home && !starts) starts = layouts.get(layoutKey(records)) || [];
        for (const id of pieceIds(rec, room.rows * room.cols)) {
          const p = newPiece(id);
          if (home) { p.cell = true; p.r = Math.floor(id / room.cols); p.c = id % room.cols; }
          else if (starts[id]) Object.assign(p, starts[id]);
          pieces[id] = p;
        }
        break;
      }
      case 'px': picture.rows.push(rec.row); break;
      default: break; // unknown kinds are for later versions
    }
  }
  if (!table) {
    // Before `S table`: a swap board fills its table; a jigsaw's is guessed
    // from where its pieces lie (the board's corner unknown: at the origin).
    let w = room.cols * UNIT, h = room.rows * UNIT;
    for (const p of pieces) if (p && !p.cell) { w = Math.max(w, p.x + UNIT); h = Math.max(h, p.y + UNIT); }
    table = { w, h, bx: 0, by: 0 };
  }
  room.table = table; room.edges = edges;
  room.pieces = pieces; room.players = players; room.watchers = watchers;
  room.version++;
  adoptParts(room, partRecords, newPiece);
  for (const rec of holds) {
    const p = pieces[rec.piece];
    if (!p) continue;
    p.holder = rec.holder; p.grip = p.id; p.hx = rec.x; p.hy = rec.y; p.hrot = rec.rotation; p.target = rec.target;
    if (p.holder === me) leaseLeft = rec.leaseLeft;
  }
  spreadHolds(room);
  room.seq = reply.seq || 0;
  room.run = reply.run || '';
  room.joined = true;
  room.zTop = 0;
  room.reordered = true;
  for (const p of pieces) {
    if (!p) continue;
    p.z = ++room.zTop;
    const g = goal(room, p, me, hand);
    p.dx = g.x; p.dy = g.y; p.drot = g.rot; p.rotGoal = g.rot;
  }
  const mine = players.get(me);
  room.hintUsed = mine ? mine.hintUsed : false;
  room.picture = picture;
  return { leaseLeft };
}

/** The lowest colour slot no present player has (PROTOCOL.md, "Colour slots"). */
export function freeSlot(room) {
  const used = new Set();
  for (const pl of room.players.values()) if (pl.present && pl.slot >= 0) used.add(pl.slot);
  let s = 0;
  while (used.has(s)) s++;
  return s;
}

export function colorOf(room, id) {
  const pl = room.players.get(id);
  const slot = pl && pl.slot >= 0 ? pl.slot : id;
  return PALETTE[((slot % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

export function nameOf(room, id) { const pl = room.players.get(id); return pl ? pl.name : `#${id}`; }

/** Applies one event (`parseEvent`) in sequence. Returns `{ outcome, effects }`:
 *  outcome `applied`, `stale` (already in the state: ignored) or `gap` (one
 *  was missed: the page asks for SYNC); effects are what the screen shows of
 *  it, in order: `{ kind: 'note', text }` (a line in the chat), `warn` (a
 *  note shown as an error too), `chat` ({ from, text }), `flash` ({ r, c, by }:
 *  a cell someone filled), `endHold` (my hand is empty now), `watchers`
 *  (the list changed), `next` (a new puzzle: its snapshot is to be asked for). */
export function applyEvent(room, e, me, hand) {
  const effects = [];
  if (!e.sequenced) {
    if (e.seq > room.seq) return { outcome: 'gap', effects };
    if (e.seq < room.seq) return { outcome: 'stale', effects };
  } else {
    if (e.seq <= room.seq) return { outcome: 'stale', effects };
    if (e.seq !== room.seq + 1) return { outcome: 'gap', effects };
    room.seq = e.seq;
  }
  // What lies still changes with these (drags and turns move held pieces only).
  if (STILL_CHANGES.has(e.kind)) room.version++;
  const note = (text) => effects.push({ kind: 'note', text });
  const p = e.piece === undefined ? undefined : room.pieces[e.piece];
  switch (e.kind) {
    case 'joined': {
      const old = room.players.get(e.id);
      const pl = old || { id: e.id, moves: 0, hintUsed: false };
      // Its own colour when the server names it (free, or the server would
      // not), else the lowest free (PROTOCOL.md, "Colour slots").
      pl.name = e.name; pl.present = true; pl.slot = e.color >= 0 ? e.color : freeSlot(room);
      room.players.set(e.id, pl);
      if (e.id !== me) note(`${pl.name} joined`);
      break;
    }
    case 'left': {
      const pl = room.players.get(e.id);
      if (pl) { pl.present = false; pl.slot = -1; if (pl.id !== me) note(`${pl.name} left`); }
      break;
    }
    case 'forgotten': room.players.delete(e.id); break;
    case 'watching':
      if (!room.watchers.has(e.id) && e.id !== me) note(`${e.name} is watching`);
      room.watchers.set(e.id, e.name);
      effects.push({ kind: 'watchers' });
      break;
    case 'unwatching':
      if (room.watchers.has(e.id) && e.id !== me) note(`${room.watchers.get(e.id)} stopped watching`);
      room.watchers.delete(e.id);
      effects.push({ kind: 'watchers' });
      break;
    case 'grabbed':
      // A piece of a part holds the whole part.
      if (p) { const at = posOf(room, p); takeHold(room, p, e.id, at.x, at.y, p.rot); }
      break;
    case 'dragged':
      if (p) { p.hx = e.x; p.hy = e.y; p.target = e.target; }
      break;
    case 'rotated':
      if (p) {
        p.target = e.target;
        for (const q of membersOf(room, p)) { q.hrot = e.rotation; setRotGoal(q, q.hrot); }
      }
      break;
    case 'placed':
      if (p) {
        // The grip's place: every piece joined to it goes beside it.
        const moved = placePart(room, p, e, e.rotation);
        if (hand.piece === p.id && e.id === me) effects.push({ kind: 'endHold' });
        for (const q of moved) {
          setRotGoal(q, q.rot);
          if (q.cell && e.id !== me) effects.push({ kind: 'flash', r: q.r, c: q.c, by: e.id });
        }
      }
      break;
    case 'merged': {
      const o = room.pieces[e.other];
      if (p && o && !p.cell && !o.cell) mergeParts(room, p, o);
      break;
    }
    case 'swapped': {
      const o = room.pieces[e.other];
      if (p && o) {
        const r = p.r, c = p.c;
        p.r = o.r; p.c = o.c; o.r = r; o.c = c;
        p.holder = 0; p.target = '-';
        if (hand.piece === p.id) effects.push({ kind: 'endHold' });
      }
      break;
    }
    case 'released': case 'expired': case 'returned':
      if (p) {
        // The whole part goes back as it was.
        endHold(room, p);
        for (const q of membersOf(room, p)) setRotGoal(q, q.rot);
        if (hand.piece === p.id) effects.push({ kind: 'endHold' });
        if (e.kind === 'expired' && e.id === me) {
          effects.push({ kind: 'warn', text: `Piece ${p.id} went back: held ${room.lease / 1000} s without a move.` });
        }
      }
      break;
    case 'solved':
      room.solvedMs = e.elapsed;
      for (const q of room.pieces) if (q) { q.holder = 0; q.grip = -1; q.target = '-'; }
      effects.push({ kind: 'endHold' });
      note(`Solved in ${clockText(room.solvedMs)}! 🎉`);
      break;
    case 'next':
      note(`Next puzzle: ${e.size} ${e.roomKind}${e.rotation ? ' with rotation' : ''}`);
      effects.push({ kind: 'endHold' });
      // The new layout and picture come with a snapshot: the page computes
      // nothing, and takes `next` again from the snapshot's sequence number.
      room.seq = e.seq - 1;
      effects.push({ kind: 'next' });
      break;
    case 'hint': {
      const pl = room.players.get(e.id);
      if (pl && pl.id !== me) note(`${pl.name} looked at the hint`);
      break;
    }
    case 'say': {
      const from = room.players.get(e.id) || (room.watchers.has(e.id) ? { id: e.id, name: room.watchers.get(e.id) } : null);
      effects.push({ kind: 'chat', from, text: e.text });
      break;
    }
    default: break;
  }
  return { outcome: 'applied', effects };
}

/** A piece in its own cell, unturned. */
export function placedRight(room, p) { return p.cell && p.r * room.cols + p.c === p.id && p.rot === 0; }

export function progress(room) {
  let n = 0;
  for (const p of room.pieces) if (p && placedRight(room, p)) n++;
  return n;
}

/** The puzzle clock at page time `now` (ms): the solve's time once solved. */
export function clockNow(room, now) {
  if (room.solvedMs !== null) return room.solvedMs;
  return room.elapsed + (room.running ? now - room.elapsedAt : 0);
}

export function clockText(ms) {
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = s % 60;
  const two = (v) => String(v).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(ss)}` : `${m}:${two(ss)}`;
}
