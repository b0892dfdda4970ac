// A kept solve played back (PROTOCOL.md, *Replays*): the replay as REPLAY's
// pages sent it, a room of its own built from `LAYOUT <puzzle>` (that
// puzzle's table, edges and start layout), and a playback on a clock passed
// in: speeds, pause, step forward and back, start and end. The live room is
// never touched. Pure (no DOM), so node tests it; replayview.js draws it.

import { createRoom, newPiece } from './state.js';
import { startLayout } from './wire.js';
import { UNIT, goal, setRotGoal } from './geometry.js';
import { mergeParts, placePart } from './parts.js';

/** The speeds offered, slowest first (the terminal's). */
export const SPEEDS = [1, 2, 4, 8, 16, 32, 64];
/** The longest wait between two moves at 1x (ms): a long pause in play is no long wait here. */
export const MAX_GAP = 2000;

/** REPLAY's first page (its records, `parseRecord`) read: the start, the
 *  players, the moves and joins so far (`steps`) and the picture's rows. */
export function readReplay(records) {
  const r = { puzzle: -1, kind: 'jigsaw', rows: 0, cols: 0, rotation: false, picture: '', elapsed: 0, moves: 0,
    truncated: false, players: [], steps: [], image: { width: 0, height: 0, rows: [] } };
  for (const rec of records) {
    switch (rec.kind) {
      case 'replay-start':
        Object.assign(r, { puzzle: rec.puzzle, kind: rec.roomKind, rows: rec.rows, cols: rec.cols, rotation: rec.rotation,
          picture: rec.picture, elapsed: rec.elapsed, moves: rec.moves, truncated: rec.truncated });
        break;
      case 'replay-player': r.players.push({ id: rec.id, name: rec.name, placed: rec.placed, moves: rec.moves }); break;
      case 'replay': r.steps.push(rec); break;
      case 'picture': r.image.width = rec.width; r.image.height = rec.height; break;
      case 'px': r.image.rows.push(rec.row); break;
      default: break;
    }
  }
  return r;
}

/** A later page's moves (`REPLAY <puzzle> <from>`): only `S replay` lines. */
export function addPage(replay, records) {
  for (const rec of records) if (rec.kind === 'replay') replay.steps.push(rec);
}

/** The replay's puzzle as it started: a room object (state.js's shape, so
 *  geometry.js and parts.js work on it) from `LAYOUT <puzzle>`'s records.
 *  `slots`: colour slots of players to keep (the live room's, so that a
 *  player looks the same in both); the others take the lowest free ones. */
export function replayRoom(replay, layoutRecords, slots = new Map()) {
  const room = createRoom();
  Object.assign(room, { joined: true, name: `replay ${replay.puzzle}`, kind: replay.kind, rows: replay.rows, cols: replay.cols,
    rotation: replay.rotation, puzzle: replay.puzzle, lid: false });
  for (const rec of layoutRecords) {
    if (rec.kind === 'table') room.table = { w: rec.width, h: rec.height, bx: rec.boardX, by: rec.boardY };
    if (rec.kind === 'edges') room.edges = { right: rec.right, bottom: rec.bottom };
  }
  if (!room.table) room.table = { w: room.cols * UNIT, h: room.rows * UNIT, bx: 0, by: 0 };
  const start = startLayout(layoutRecords);
  for (let id = 0; id < room.rows * room.cols; id++) {
    const p = newPiece(id);
    if (start[id]) Object.assign(p, start[id]);
    p.z = ++room.zTop;
    room.pieces[id] = p;
  }
  const taken = new Set();
  for (const pl of replay.players) if (slots.has(pl.id)) taken.add(slots.get(pl.id));
  for (const pl of replay.players) {
    let slot = slots.get(pl.id);
    if (slot === undefined) { slot = 0; while (taken.has(slot)) slot++; taken.add(slot); }
    room.players.set(pl.id, { id: pl.id, name: pl.name, moves: 0, placed: 0, slot, present: true });
  }
  room.lastMove = null;
  settle(room);
  return room;
}

/** Every piece drawn where it lies now (no glide): after a jump. */
export function settle(room) {
  for (const p of room.pieces) {
    if (!p) continue;
    const g = goal(room, p, -1, { piece: -1 });
    p.dx = g.x; p.dy = g.y; p.drot = g.rot; p.rotGoal = g.rot;
  }
  room.reordered = true;
}

/** Applies one `S replay` record to a replay room: a drop (`placed`, the
 *  whole part with it), a swap, or a join (`merged`). A move that does not
 *  fit (a damaged record) is skipped. Returns the pieces that moved. */
export function applyStep(room, step) {
  const p = room.pieces[step.piece];
  if (!p) return [];
  const pl = room.players.get(step.id);
  switch (step.move) {
    case 'placed': {
      if (pl) pl.moves++;
      const moved = placePart(room, p, step, step.rotation);
      for (const q of moved) {
        setRotGoal(q, q.rot);
        if (pl && q.cell && q.r * room.cols + q.c === q.id && q.rot === 0) pl.placed++;
      }
      room.lastMove = { piece: p.id, id: step.id, step };
      return moved;
    }
    case 'swapped': {
      const o = room.pieces[step.other];
      if (!o || o === p) return [];
      if (pl) pl.moves++;
      const r = p.r, c = p.c;
      p.r = o.r; p.c = o.c; o.r = r; o.c = c;
      if (pl) for (const q of [p, o]) if (q.r * room.cols + q.c === q.id) pl.placed++;
      room.lastMove = { piece: p.id, id: step.id, step };
      return [p, o];
    }
    case 'merged': {
      const o = room.pieces[step.other];
      if (!o || o === p || p.cell || o.cell) return [];
      mergeParts(room, p, o);
      room.reordered = true;
      return [o];
    }
    default: return [];
  }
}

/** Each step's moment on the playback's own timeline (ms at 1x): the
 *  puzzle clock's, each gap capped at MAX_GAP. */
export function dueTimes(steps) {
  const due = [];
  let at = 0, previous = 0;
  for (const s of steps) {
    at += Math.min(Math.max(0, s.elapsed - previous), MAX_GAP);
    previous = Math.max(previous, s.elapsed);
    due.push(at);
  }
  return due;
}

/** A playback of `replay` at `now` (ms, any clock), from its start, at
 *  `speed` (the nearest offered at or below), playing. */
export function createPlayback(replay, layoutRecords, { speed = 4, now = 0, slots } = {}) {
  const pb = { replay, layoutRecords, slots, room: null, shown: 0, speed: SPEEDS[0], paused: false, position: 0, lastNow: now, due: [] };
  for (const s of SPEEDS) if (s <= Math.max(1, speed)) pb.speed = s;
  pb.room = replayRoom(replay, layoutRecords, slots);
  pb.due = dueTimes(replay.steps);
  return pb;
}

/** Whether the moves that came so far (a later page may bring more) are all on the board. */
export const finished = (pb) => pb.shown >= pb.replay.steps.length;
/** Whether every move of the replay is on the board: every page came and was shown. */
export const atEnd = (pb, morePages) => finished(pb) && !morePages;

function stepOne(pb) {
  applyStep(pb.room, pb.replay.steps[pb.shown]);
  pb.shown++;
}

/** A page came: its moves get their moments. */
export function pagesChanged(pb) { pb.due = dueTimes(pb.replay.steps); }

/** Brings the board up to `now`: every step due by then is applied. */
export function advance(pb, now) {
  const passed = Math.max(0, now - pb.lastNow);
  pb.lastNow = Math.max(pb.lastNow, now);
  if (pb.paused) return;
  pb.position += passed * pb.speed;
  while (pb.shown < pb.due.length && pb.due[pb.shown] <= pb.position) stepOne(pb);
}

/** When the next step is due on the clock (null: paused or none left). */
export function nextDue(pb) {
  if (pb.paused || pb.shown >= pb.due.length) return null;
  return pb.lastNow + Math.ceil(Math.max(0, pb.due[pb.shown] - pb.position) / pb.speed);
}

export function togglePause(pb, now) { advance(pb, now); pb.paused = !pb.paused; }

/** The next offered speed up (`faster`) or down, from `now` on. */
export function changeSpeed(pb, faster, now) {
  advance(pb, now);
  const i = Math.max(0, SPEEDS.indexOf(pb.speed));
  pb.speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + (faster ? 1 : -1)))];
}

/** One move on (and the joins it made), at once, then paused there. */
export function step(pb, now) {
  advance(pb, now);
  pb.paused = true;
  if (pb.shown >= pb.replay.steps.length) return;
  stepOne(pb);
  while (pb.shown < pb.replay.steps.length && pb.replay.steps[pb.shown].move === 'merged') stepOne(pb);
  pb.position = Math.max(pb.position, pb.due[pb.shown - 1] || 0);
}

/** One move back (with its joins), paused: the board is built again from
 *  the start up to the move before (moves cannot be undone one by one: a
 *  join may have moved a whole part). */
export function stepBack(pb, now) {
  advance(pb, now);
  pb.paused = true;
  // Back past the latest move's joins and the move itself; the move
  // before keeps its joins.
  let n = pb.shown;
  while (n > 0 && pb.replay.steps[n - 1].move === 'merged') n--;
  if (n > 0) n--;
  jumpTo(pb, n, now);
  pb.position = pb.shown ? pb.due[pb.shown - 1] : 0;
  settle(pb.room);
}

/** The board after the first `n` steps, from the start. */
function jumpTo(pb, n, now) {
  pb.room = replayRoom(pb.replay, pb.layoutRecords, pb.slots);
  pb.shown = 0;
  pb.lastNow = now;
  while (pb.shown < n) stepOne(pb);
}

/** Back to the start: paused, or playing on. */
export function rewind(pb, now, paused = true) {
  jumpTo(pb, 0, now);
  pb.position = 0;
  pb.paused = paused;
}

/** Every step that came, at once: the end. */
export function toEnd(pb, now) {
  advance(pb, now);
  while (pb.shown < pb.replay.steps.length) stepOne(pb);
  pb.position = Math.max(pb.position, pb.due[pb.due.length - 1] || 0);
  settle(pb.room);
}

/** How many of the steps shown are moves (joins are none), and how many moves came. */
export function movesShown(pb) {
  let n = 0;
  for (let i = 0; i < pb.shown; i++) if (pb.replay.steps[i].move !== 'merged') n++;
  return n;
}
export function movesKept(replay) { return replay.steps.filter((s) => s.move !== 'merged').length; }

/** The puzzle clock shown: the latest step's time, the solve's at the end. */
export function clockShown(pb, morePages) {
  if (atEnd(pb, morePages) && !pb.replay.truncated) return pb.replay.elapsed;
  return pb.shown ? pb.replay.steps[pb.shown - 1].elapsed : 0;
}

/** The latest move in words, as the terminal says it. */
export function lastMoveText(pb) {
  const m = pb.room.lastMove;
  if (!m || !pb.shown) return 'the start';
  const pl = pb.room.players.get(m.id), who = pl ? pl.name : `#${m.id}`, s = m.step;
  if (s.move === 'swapped') return `${who} swapped tiles ${s.piece} and ${s.other}`;
  if (s.cell) return `${who} placed piece ${s.piece} in cell ${s.row},${s.col}`;
  return `${who} put piece ${s.piece} on the table`;
}

/** A solve's numbers as the terminal says them: "5 moves; placed: alice 3, bob 2". */
export function statsText(moves, players) {
  const placed = players.slice().sort((a, b) => b.placed - a.placed).map((p) => `${p.name} ${p.placed}`).join(', ');
  return `${moves} move${moves === 1 ? '' : 's'}` + (placed ? `; placed: ${placed}` : '');
}

/** HISTORY's records: each solved puzzle with its players. */
export function readHistory(records) {
  const list = [], byPuzzle = new Map();
  for (const rec of records) {
    if (rec.kind === 'history') {
      const e = { puzzle: rec.puzzle, kind: rec.roomKind, rows: rec.rows, cols: rec.cols, rotation: rec.rotation, picture: rec.picture,
        elapsed: rec.elapsed, moves: rec.moves, players: [] };
      list.push(e); byPuzzle.set(e.puzzle, e);
    } else if (rec.kind === 'history-player') {
      const e = byPuzzle.get(rec.puzzle);
      if (e) e.players.push({ id: rec.id, name: rec.name, placed: rec.placed, moves: rec.moves });
    }
  }
  return list;
}
