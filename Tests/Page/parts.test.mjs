// parts.js through state.js: pieces joined on the table (PROTOCOL.md, *Parts*)
// from `S part` records and the grabbed, dragged, rotated, placed and merged
// events, as the page mirrors them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEvent, parseRecord, parseReply } from '../../Sources/CWebPage/Page/wire.js';
import { createRoom, applySnapshot, applyEvent } from '../../Sources/CWebPage/Page/state.js';
import { goal, clampPos } from '../../Sources/CWebPage/Page/geometry.js';
import { cellOffset, clampPart, targetCells, joinedOn, heldText } from '../../Sources/CWebPage/Page/parts.js';

const ME = 7, BOB = 8;
const noHand = () => ({ piece: -1, x: 0, y: 0 });

/** A 4x4 jigsaw (table 40 x 24, board at 12,4), compact: pieces 0, 1, 4 joined
 *  at 0,4 (only the lowest listed), 5 loose at 8,20, the rest home. */
function room(extra = []) {
  const r = createRoom();
  const lines = [
    'S room den kind=jigsaw size=4x4 rotation=on picture=sunset puzzle=0 seq=20 seed=7 lease=20000 hint=2000 hold=1 elapsed=0 solved=- first=jigsaw,4x4,on,sunset clock=running pictures=cycle lid=on place=own',
    'S player 7 0 0 - me', 'S player 8 0 0 - bob', 'S color 7 0', 'S color 8 1',
    'S table 40 24 12 4', 'S edges tbtbtbtbtbtb btbtbtbtbtbt',
    'S pieces home 2-3,6-15', 'S piece 0 table 0 4 0', 'S piece 5 table 8 20 0', 'S part 0 0-1,4',
    ...extra,
  ];
  applySnapshot(r, lines.map(parseRecord), parseReply('OK joined den id=7 seq=20 run=0123456789abcdef'),
    { layouts: new Map(), me: ME, hand: noHand(), now: 0 });
  return r;
}
const ev = (r, line, hand = noHand()) => applyEvent(r, parseEvent(line), ME, hand);

test('wire: S part and merged', () => {
  assert.deepEqual(parseRecord('S part 20 20-21,26,30-31'), { kind: 'part', id: 20, members: [20, 21, 26, 30, 31] });
  const e = parseEvent('EV 12 merged 5 6 3');
  assert.deepEqual([e.kind, e.piece, e.other, e.id, e.sequenced], ['merged', 5, 6, 3, true]);
});

test('a compact snapshot: the pieces of a part left out lie beside its lowest', () => {
  const r = room();
  assert.deepEqual([...r.parts], [[0, [0, 1, 4]]]);
  assert.deepEqual([r.pieces[1].x, r.pieces[1].y, r.pieces[4].x, r.pieces[4].y], [4, 4, 0, 8]);
  assert.deepEqual([r.pieces[0].part, r.pieces[1].part, r.pieces[4].part, r.pieces[5].part], [0, 0, 0, -1]);
  assert.ok(joinedOn(r, r.pieces[0], 1) && joinedOn(r, r.pieces[0], 2) && !joinedOn(r, r.pieces[1], 2));
});

test('a hold on a piece of a part, in the snapshot, holds the whole part', () => {
  const r = room(['S hold 4 8 2 10 0 - 15000']);
  assert.deepEqual([r.pieces[0].holder, r.pieces[1].holder, r.pieces[4].holder], [BOB, BOB, BOB]);
  assert.deepEqual(goal(r, r.pieces[1], ME, noHand()), { x: 6, y: 6, rot: 0 });
});

test('grabbing one piece holds the part; a drag moves every piece beside the grip', () => {
  const r = room();
  ev(r, 'EV 21 grabbed 1 8');
  assert.ok([0, 1, 4].every((i) => r.pieces[i].holder === BOB && r.pieces[i].grip === 1));
  ev(r, 'EV 21 dragged 1 8 16 20 -');
  assert.deepEqual(goal(r, r.pieces[0], ME, noHand()), { x: 12, y: 20, rot: 0 });
  assert.deepEqual(goal(r, r.pieces[4], ME, noHand()), { x: 12, y: 24, rot: 0 });
  // Committed places stay until the drop.
  assert.deepEqual([r.pieces[0].x, r.pieces[0].y], [0, 4]);
});

test('a rotation turns the part about the grip', () => {
  const r = room();
  ev(r, 'EV 21 grabbed 0 8');
  ev(r, 'EV 22 rotated 0 8 1 -');
  // A quarter turn clockwise: the right neighbour goes below, the lower one to the left.
  assert.deepEqual(goal(r, r.pieces[1], ME, noHand()), { x: 0, y: 8, rot: 1 });
  assert.deepEqual(goal(r, r.pieces[4], ME, noHand()), { x: -4, y: 4, rot: 1 });
  assert.deepEqual(cellOffset(r, 4, 0, 1), { dx: -1, dy: 0 });
});

test('dropped on the table the whole part moves; released it goes back', () => {
  const r = room();
  ev(r, 'EV 21 grabbed 1 8');
  ev(r, 'EV 22 released 1 8');
  assert.ok([0, 1, 4].every((i) => r.pieces[i].holder === 0 && r.pieces[i].grip === -1));
  ev(r, 'EV 23 grabbed 4 8');
  ev(r, 'EV 24 placed 4 8 table 4 16 0');
  assert.deepEqual([0, 1, 4].map((i) => [r.pieces[i].x, r.pieces[i].y, r.pieces[i].holder]), [[4, 12, 0], [8, 12, 0], [4, 16, 0]]);
  assert.deepEqual([...r.parts], [[0, [0, 1, 4]]]);
});

test('into the board: every piece into its cell beside the grip, and the part comes apart', () => {
  const r = room();
  ev(r, 'EV 21 grabbed 1 8');
  ev(r, 'EV 21 dragged 1 8 16 4 0,1');
  assert.deepEqual(targetCells(r, r.pieces[1], { r: 0, c: 1 }), [{ r: 0, c: 0 }, { r: 0, c: 1 }, { r: 1, c: 0 }]);
  const { effects } = ev(r, 'EV 22 placed 1 8 cell 0 1 0');
  assert.deepEqual([0, 1, 4].map((i) => [r.pieces[i].cell, r.pieces[i].r, r.pieces[i].c, r.pieces[i].part]),
    [[true, 0, 0, -1], [true, 0, 1, -1], [true, 1, 0, -1]]);
  assert.equal(r.parts.size, 0);
  assert.equal(effects.filter((f) => f.kind === 'flash').length, 3);
});

test('merged: the other part moves into exact place, then the two are one', () => {
  const r = room();
  // 5 dropped one unit off beside 1 (its place: 4,8) and 4 (4,8 too).
  ev(r, 'EV 21 grabbed 5 7');
  ev(r, 'EV 22 placed 5 7 table 5 9 0');
  ev(r, 'EV 23 merged 5 1 7');
  assert.deepEqual([...r.parts], [[0, [0, 1, 4, 5]]]);
  // The part of 1 moved by one unit each way to lie beside 5.
  assert.deepEqual([r.pieces[0].x, r.pieces[0].y, r.pieces[5].x, r.pieces[5].y], [1, 5, 5, 9]);
});

test('my hand keeps a part wholly on the table', () => {
  const r = room();
  ev(r, 'EV 21 grabbed 1 7');
  // Piece 1 at x 0 would put piece 0 at x -4; at y 20, piece 4 at y 24 (the table is 24 high).
  assert.deepEqual(clampPart(r, r.pieces[1], 0, 20, 0), { x: 4, y: 16 });
  assert.deepEqual(clampPos(r.table, 0, 20, r, r.pieces[1]), { x: 4, y: 16 });
  assert.deepEqual(clampPos(r.table, 0, 22), { x: 0, y: 20 });
});

test('a press on a held part says the part, a held piece the piece', () => {
  const r = room();
  assert.equal(heldText(r, r.pieces[4], 'bob'), 'This part (3 pieces, with piece 4) is held by bob.');
  assert.equal(heldText(r, r.pieces[5], 'bob'), 'Piece 5 is held by bob.');
});
