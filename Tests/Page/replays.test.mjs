// replays.js: a kept solve read from REPLAY's pages and LAYOUT <puzzle>,
// played back on a room of its own (moves, joins, swaps), with speeds,
// pause, steps both ways, the start and the end; and HISTORY's entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRecord } from '../../Sources/CWebPage/Page/wire.js';
import {
  readReplay, addPage, replayRoom, applyStep, createPlayback, advance, togglePause, changeSpeed, step, stepBack,
  rewind, toEnd, finished, atEnd, movesShown, movesKept, clockShown, lastMoveText, statsText, readHistory, nextDue,
  pagesChanged, dueTimes,
} from '../../Sources/CWebPage/Page/replays.js';
import { colorOf, PALETTE } from '../../Sources/CWebPage/Page/state.js';

const recs = (lines) => lines.map(parseRecord);

/** A 2x3 jigsaw solved by alice (1) and bob (2): 0 and 1 joined on the table
 *  (bob's drop of 1 beside 0), the part carried home by its grip 1, the rest
 *  dropped home. A 10-second pause in play before bob's last move. */
const first = [
  'S replay-start 3 jigsaw 2x3 off sunset seed=7 elapsed=14000 moves=7 players=2 joins=1',
  'S replay-player 1 placed=5 moves=5 alice',
  'S replay-player 2 placed=1 moves=2 bob',
  'S replay 1000 1 placed 0 table 0 0 0',
  'S replay 2000 2 placed 1 table 4 0 0',
  'S replay 2000 2 merged 1 0',
  'S replay 3000 1 placed 1 cell 0 1 0',
  'S picture 2 1',
  'S px ff000000ff00',
];
const second = [
  'S replay 3500 1 placed 2 cell 0 2 0',
  'S replay 3600 1 placed 3 cell 1 0 0',
  'S replay 13600 2 placed 4 cell 1 1 0',
  'S replay 14000 1 placed 5 cell 1 2 0',
];
/** `LAYOUT 3`: the table, edges and each piece's start (one S piece line each). */
const layout = recs([
  'S table 36 16 12 4', 'S edges tbtb btb',
  'S piece 0 table 0 10 0', 'S piece 1 table 5 10 0', 'S piece 2 table 30 0 0',
  'S piece 3 table 30 5 0', 'S piece 4 table 30 10 0', 'S piece 5 table 0 0 0',
]);
const whole = () => { const r = readReplay(recs(first)); addPage(r, recs(second)); return r; };
const places = (room) => room.pieces.map((p) => (p.cell ? `c${p.r},${p.c}` : `t${p.x},${p.y}`) + `/${p.part}`);

test('reading REPLAY: the start, players, moves with joins, the picture; a later page adds moves', () => {
  const r = readReplay(recs(first));
  assert.deepEqual([r.puzzle, r.kind, r.rows, r.cols, r.elapsed, r.moves, r.truncated], [3, 'jigsaw', 2, 3, 14000, 7, false]);
  assert.deepEqual(r.players.map((p) => [p.id, p.name, p.placed]), [[1, 'alice', 5], [2, 'bob', 1]]);
  assert.deepEqual(r.steps.map((s) => s.move), ['placed', 'placed', 'merged', 'placed']);
  assert.deepEqual(r.image, { width: 2, height: 1, rows: ['ff000000ff00'] });
  addPage(r, recs(second));
  assert.equal(r.steps.length, 8);
  assert.equal(movesKept(r), 7, 'joins are no moves');
});

test('a replay room: the puzzle as it started, its own table and edges; live colours kept, the others free', () => {
  const room = replayRoom(whole(), layout, new Map([[2, 0]]));
  assert.deepEqual(room.table, { w: 36, h: 16, bx: 12, by: 4 });
  assert.deepEqual(room.edges, { right: 'tbtb', bottom: 'btb' });
  assert.deepEqual(places(room), ['t0,10/-1', 't5,10/-1', 't30,0/-1', 't30,5/-1', 't30,10/-1', 't0,0/-1']);
  // bob keeps the live room's slot 0; alice takes the lowest free one.
  assert.equal(colorOf(room, 2), PALETTE[0]);
  assert.equal(colorOf(room, 1), PALETTE[1]);
  assert.deepEqual([room.pieces[1].dx, room.pieces[1].dy], [5, 10]);
});

test('moves apply: a drop, a join moving the other part beside, the part home as one, counts per player', () => {
  const r = whole(), room = replayRoom(r, layout);
  applyStep(room, r.steps[0]);
  applyStep(room, r.steps[1]);
  applyStep(room, r.steps[2]);
  // merged 1 0: piece 0 (other) lies beside 1 as in the picture, the two one part.
  assert.deepEqual(places(room).slice(0, 2), ['t0,0/0', 't4,0/0']);
  assert.deepEqual([...room.parts], [[0, [0, 1]]]);
  applyStep(room, r.steps[3]);
  assert.deepEqual(places(room).slice(0, 2), ['c0,0/-1', 'c0,1/-1']);
  assert.equal(room.parts.size, 0);
  assert.deepEqual([room.players.get(1).moves, room.players.get(1).placed, room.players.get(2).moves], [2, 2, 1]);
  for (const s of r.steps.slice(4)) applyStep(room, s);
  assert.ok(room.pieces.every((p) => p.cell && p.r * 3 + p.c === p.id));
  assert.deepEqual([room.players.get(1).placed, room.players.get(2).placed], [5, 1]);
});

test('a swap room: tiles trade cells', () => {
  const r = readReplay(recs(['S replay-start 0 swap 1x2 off sunset seed=7 elapsed=500 moves=1 players=1', 'S replay-player 4 placed=2 moves=1 eve',
    'S replay 500 4 swapped 0 1']));
  const room = replayRoom(r, recs(['S table 8 4 0 0', 'S piece 0 cell 0 1 0', 'S piece 1 cell 0 0 0']));
  applyStep(room, r.steps[0]);
  assert.deepEqual(places(room), ['c0,0/-1', 'c0,1/-1']);
  assert.equal(room.players.get(4).placed, 2);
  assert.equal(lastMoveText({ room, shown: 1 }), 'eve swapped tiles 0 and 1');
});

test('playing: moments follow the puzzle clock at the speed, a long pause capped at 2 s', () => {
  const r = whole();
  assert.deepEqual(dueTimes(r.steps), [1000, 2000, 2000, 3000, 3500, 3600, 5600, 6000]);
  const pb = createPlayback(r, layout, { speed: 4, now: 100 });
  assert.equal(pb.speed, 4);
  advance(pb, 100 + 249);
  assert.equal(pb.shown, 0);
  assert.equal(nextDue(pb), 100 + 250);
  advance(pb, 100 + 500);     // 2000 ms of play: the move and its join together
  assert.equal(pb.shown, 3);
  assert.equal(movesShown(pb), 2);
  assert.equal(lastMoveText(pb), 'bob put piece 1 on the table');
  assert.equal(clockShown(pb, false), 2000);
  changeSpeed(pb, true, 600);  // 8x from 600 on
  assert.equal(pb.speed, 8);
  advance(pb, 600 + 200);      // 1600 ms more of play: 3600
  assert.equal(pb.shown, 6);
  togglePause(pb, 800);
  advance(pb, 100000);
  assert.equal(pb.shown, 6, 'paused: nothing moves');
  assert.equal(nextDue(pb), null);
  togglePause(pb, 100000);
  advance(pb, 100000 + 300);   // 2400 ms more: past the capped gap (5600) and the end (6000)
  assert.ok(finished(pb) && atEnd(pb, false) && !atEnd(pb, true));
  assert.equal(clockShown(pb, false), 14000, 'the end shows the solve time');
  assert.ok(pb.room.pieces.every((p) => p.cell && p.r * 3 + p.c === p.id));
  changeSpeed(pb, true, 0); changeSpeed(pb, true, 0); changeSpeed(pb, true, 0); changeSpeed(pb, true, 0);
  assert.equal(pb.speed, 64, 'at most the fastest');
  assert.equal(createPlayback(r, layout, { speed: 5 }).speed, 4, 'the nearest offered at or below');
});

test('stepping: a move with its joins at a time, forward and back, the board as it was; start and end', () => {
  const r = whole();
  const pb = createPlayback(r, layout, { now: 0 });
  const seen = [places(pb.room)];
  for (let i = 0; i < 7; i++) { step(pb, 0); seen.push(places(pb.room)); }
  assert.ok(pb.paused);
  assert.equal(pb.shown, 8);
  assert.equal(movesShown(pb), 7);
  step(pb, 0);
  assert.equal(pb.shown, 8, 'nothing past the end');
  // Back one move at a time: each board is the one seen on the way there.
  for (let i = 6; i >= 0; i--) {
    stepBack(pb, 0);
    assert.deepEqual(places(pb.room), seen[i], `back to move ${i}`);
    assert.equal(movesShown(pb), i);
  }
  // After move 2 (bob's drop) its join is shown with it: the part.
  step(pb, 0); step(pb, 0);
  assert.equal(pb.shown, 3);
  assert.deepEqual([...pb.room.parts], [[0, [0, 1]]]);
  stepBack(pb, 0);
  assert.equal(pb.shown, 1);
  assert.equal(pb.room.parts.size, 0, 'the join is undone with its move');
  toEnd(pb, 0);
  assert.ok(finished(pb));
  assert.ok(pb.room.pieces.every((p) => p.cell && p.dx === 12 + p.c * 4 && p.dy === 4 + p.r * 4), 'drawn where they lie');
  rewind(pb, 50);
  assert.deepEqual([pb.shown, pb.paused, pb.position], [0, true, 0]);
  assert.deepEqual(places(pb.room), seen[0]);
  assert.equal(lastMoveText(pb), 'the start');
});

test('a page that comes while playing adds its moves to the timeline', () => {
  const r = readReplay(recs(first));
  const pb = createPlayback(r, layout, { speed: 64, now: 0 });
  advance(pb, 1000);
  assert.ok(finished(pb) && !atEnd(pb, true));
  addPage(r, recs(second)); pagesChanged(pb);
  assert.ok(!finished(pb));
  advance(pb, 2000);
  assert.ok(finished(pb) && atEnd(pb, false));
});

test('HISTORY read, and a solve said as the terminal says it', () => {
  const list = readHistory(recs([
    'S history 0 jigsaw 2x2 off sunset elapsed=8021 moves=5 players=2',
    'S history-player 0 1 placed=2 moves=3 alice', 'S history-player 0 2 placed=3 moves=2 bob',
    'S history 1 swap 3x3 on harbour elapsed=61000 moves=1 players=1', 'S history-player 1 2 placed=9 moves=1 bob',
  ]));
  assert.deepEqual(list.map((e) => [e.puzzle, e.kind, e.rows, e.cols, e.elapsed, e.moves, e.players.length]),
    [[0, 'jigsaw', 2, 2, 8021, 5, 2], [1, 'swap', 3, 3, 61000, 1, 1]]);
  assert.equal(statsText(list[0].moves, list[0].players), '5 moves; placed: bob 3, alice 2');
  assert.equal(statsText(1, list[1].players), '1 move; placed: bob 9');
  assert.equal(statsText(0, []), '0 moves');
});
