// state.js: a room built from snapshots (full and compact) and changed by
// events in sequence, with what the screen is told of each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEvent, parseRecord, parseReply, startLayout } from '../../Sources/CWebPage/Page/wire.js';
import {
  createRoom, applySnapshot, applyEvent, layoutKey, freeSlot, colorOf, nameOf, PALETTE, progress, clockNow, clockText,
} from '../../Sources/CWebPage/Page/state.js';

const ME = 7;
const noHand = () => ({ piece: -1, x: 0, y: 0 });
const b64 = (bytes) => Buffer.from(bytes).toString('base64');

/** A 2x2 jigsaw (table 24 x 16, board at 8,4), me and bob, bob holding piece 3. */
function fullRoom() {
  const room = createRoom();
  const lines = [
    'S room lobby kind=jigsaw size=2x2 rotation=on picture=sunset puzzle=0 seq=10 seed=7 lease=20000 hint=2000 hold=1 elapsed=1000 solved=- first=jigsaw,2x2,on,sunset clock=running pictures=cycle lid=on',
    'S player 7 2 0 - me', 'S player 8 1 1 - bob', 'S color 7 0', 'S color 8 1', 'S absent 9 0 0 0 carol',
    'S watcher 11 dave',
    'S piece 0 cell 0 0 0', 'S piece 1 cell 0 1 0', 'S piece 2 table 0 0 1', 'S piece 3 table 20 0 0',
    'S hold 3 8 13 6 2 1,1 15000', 'S table 24 16 8 4', 'S edges tb bt', 'S picture 32 32 0123456789abcdef',
  ];
  const out = applySnapshot(room, lines.map(parseRecord), parseReply('OK joined lobby id=7 seq=10 run=0123456789abcdef'),
    { layouts: new Map(), me: ME, hand: noHand(), now: 500 });
  return { room, out };
}

test('a full snapshot: the room, players, pieces, holds, table, edges and picture', () => {
  const { room, out } = fullRoom();
  assert.equal(room.joined, true);
  assert.deepEqual([room.name, room.kind, room.rows, room.cols, room.rotation, room.lid, room.lease, room.seq, room.run],
    ['lobby', 'jigsaw', 2, 2, true, true, 20000, 10, '0123456789abcdef']);
  assert.deepEqual(room.table, { w: 24, h: 16, bx: 8, by: 4 });
  assert.deepEqual(room.edges, { right: 'tb', bottom: 'bt' });
  assert.deepEqual([...room.players.keys()], [7, 8, 9]);
  assert.equal(room.players.get(9).present, false);
  assert.equal(room.players.get(8).hintUsed, true);
  assert.equal(room.hintUsed, false, 'my own hint is unused');
  assert.deepEqual([...room.watchers], [[11, 'dave']]);
  const held = room.pieces[3];
  assert.deepEqual([held.holder, held.hx, held.hy, held.hrot, held.target], [8, 13, 6, 2, '1,1']);
  // Drawn where they are going: a held piece at its holder's point, a placed one in its cell.
  assert.deepEqual([held.dx, held.dy, held.drot], [13, 6, 2]);
  assert.deepEqual([room.pieces[1].dx, room.pieces[1].dy], [12, 4]);
  assert.equal(out.leaseLeft, null, 'bob holds it, not me');
  assert.deepEqual(room.picture, { width: 32, height: 32, hash: '0123456789abcdef', rows: [] });
  assert.equal(clockNow(room, 1500), 2000);
  assert.equal(progress(room), 2, 'pieces 0 and 1 are home, unturned');
});

test('a compact snapshot: pieces home and at the start layout (LAYOUT), my hold and its lease', () => {
  const room = createRoom();
  const layoutRecords = [`S start table ${b64([0, 0, 0, 1, 0, 0, 2, 0, 3, 3, 0, 0])}`].map(parseRecord);
  const records = [
    'S room den kind=jigsaw size=2x2 rotation=off puzzle=1 seq=4 seed=99 lease=30000 hint=0 elapsed=0 solved=- clock=paused lid=off',
    'S player 7 0 0 - me', 'S pieces home 0', 'S pieces start 1-2', 'S piece 3 table 20 10 0', 'S hold 2 7 4 4 0 - 9000',
  ].map(parseRecord);
  assert.equal(layoutKey(records), '99/1/4');
  const layouts = new Map([[layoutKey(records), startLayout(layoutRecords)]]);
  const out = applySnapshot(room, records, parseReply('OK sync seq=4 digest=0 run=0123456789abcdef'), { layouts, me: ME, hand: noHand(), now: 0 });
  assert.deepEqual(room.pieces.map((p) => (p.cell ? `cell ${p.r},${p.c}` : `table ${p.x},${p.y} ${p.rot}`)),
    ['cell 0,0', 'table 5,0 0', 'table 10,0 3', 'table 20,10 0']);
  assert.equal(out.leaseLeft, 9000);
  assert.equal(room.lid, false);
  assert.equal(room.running, false);
  // No `S table`: guessed from where the pieces lie, the board at the origin.
  assert.deepEqual(room.table, { w: 24, h: 14, bx: 0, by: 0 });
});

test('a swap snapshot without lid= has no lid; a jigsaw without it has one', () => {
  const room = createRoom();
  applySnapshot(room, ['S room q kind=swap size=2x2 puzzle=0 seq=0', 'S pieces home 0-3'].map(parseRecord), parseReply('OK joined q id=7 seq=0'),
    { layouts: new Map(), me: ME, hand: noHand(), now: 0 });
  assert.equal(room.lid, false);
  assert.equal(room.solvedMs, null);
  assert.equal(progress(room), 4);
});

const apply = (room, line, hand = noHand()) => applyEvent(room, parseEvent(line), ME, hand);

test('events are applied in sequence: an old one is stale, a missed one is a gap', () => {
  const { room } = fullRoom();
  assert.equal(apply(room, 'EV 10 released 3 8').outcome, 'stale');
  assert.equal(apply(room, 'EV 12 released 3 8').outcome, 'gap');
  assert.equal(room.seq, 10);
  assert.equal(apply(room, 'EV 11 released 3 8').outcome, 'applied');
  assert.equal(room.seq, 11);
  // Drags, chat and watchers carry the current number: a later one is a gap, an earlier one stale.
  assert.equal(apply(room, 'EV 11 dragged 2 8 1 1 -').outcome, 'applied');
  assert.equal(apply(room, 'EV 12 say 8 hi').outcome, 'gap');
  assert.equal(apply(room, 'EV 10 say 8 hi').outcome, 'stale');
  assert.equal(room.seq, 11);
});

test('joined, left and the colour slots', () => {
  const { room } = fullRoom();
  let r = apply(room, 'EV 11 joined 12 erin');
  assert.deepEqual(r.effects, [{ kind: 'note', text: 'erin joined' }]);
  assert.equal(room.players.get(12).slot, 2, 'the lowest slot no present player has');
  r = apply(room, 'EV 12 left 8');
  assert.deepEqual(r.effects, [{ kind: 'note', text: 'bob left' }]);
  assert.equal(room.players.get(8).slot, -1);
  assert.equal(freeSlot(room), 1);
  apply(room, 'EV 13 joined 9 carol');
  assert.equal(room.players.get(9).slot, 1, 'carol comes back into the slot bob freed');
  assert.equal(colorOf(room, 9), PALETTE[1]);
  assert.equal(apply(room, 'EV 14 joined 7 me').effects.length, 0, 'no note of my own arrival');
  apply(room, 'EV 15 left 9');
  apply(room, 'EV 16 joined 9 carol color=5');
  assert.equal(room.players.get(9).slot, 5, 'carol takes her own colour again, the one the server names');
  assert.equal(colorOf(room, 9), PALETTE[5]);
  assert.equal([...room.players.values()].filter((p) => p.present && p.slot === 5).length, 1);
  apply(room, 'EV 17 forgotten 8');
  assert.equal(room.players.has(8), false);
  assert.equal(nameOf(room, 8), '#8');
});

test('a piece taken, dragged, turned and placed by another player', () => {
  const { room } = fullRoom();
  apply(room, 'EV 11 grabbed 2 8');
  const p = room.pieces[2];
  assert.deepEqual([p.holder, p.hx, p.hy, p.hrot, p.target], [8, 0, 0, 1, '-']);
  assert.equal(p.z, room.zTop, 'on top');
  apply(room, 'EV 11 dragged 2 8 9 5 1,1');
  assert.deepEqual([p.hx, p.hy, p.target], [9, 5, '1,1']);
  apply(room, 'EV 12 rotated 2 8 2 1,1');
  apply(room, 'EV 13 rotated 2 8 3 1,1');
  apply(room, 'EV 14 rotated 2 8 0 1,1');
  assert.equal(p.hrot, 0);
  assert.equal(p.rotGoal, 4, 'from 3 to 0 the short way: on a quarter (4), not three back');
  const r = apply(room, 'EV 15 placed 2 8 cell 1 1 0');
  assert.deepEqual([p.cell, p.r, p.c, p.holder, p.target], [true, 1, 1, 0, '-']);
  assert.deepEqual(r.effects, [{ kind: 'flash', r: 1, c: 1, by: 8 }]);
  assert.equal(p.rotGoal, 4);
  assert.equal(progress(room), 2, 'piece 2 is in cell 1,1: not its own');
});

test('my own drop ends my hold; a piece going back ends it too, and a lapsed lease says so', () => {
  const { room } = fullRoom();
  const hand = { piece: 2, x: 3, y: 3 };
  apply(room, 'EV 11 grabbed 2 7', hand);
  assert.deepEqual(apply(room, 'EV 12 placed 2 7 table 3 3 1', hand).effects, [{ kind: 'endHold' }]);
  assert.deepEqual([room.pieces[2].x, room.pieces[2].y, room.pieces[2].cell], [3, 3, false]);
  apply(room, 'EV 13 grabbed 2 7', hand);
  assert.deepEqual(apply(room, 'EV 14 expired 2 7', hand).effects,
    [{ kind: 'endHold' }, { kind: 'warn', text: 'Piece 2 went back: held 20 s without a move.' }]);
  assert.deepEqual(apply(room, 'EV 15 returned 3 8 left').effects, [], 'bob\'s piece, not in my hand');
  assert.equal(room.pieces[3].holder, 0);
});

test('swapped tiles trade cells', () => {
  const room = createRoom();
  applySnapshot(room, ['S room q kind=swap size=2x2 puzzle=0 seq=0', 'S piece 0 cell 0 1 0', 'S piece 1 cell 0 0 0', 'S pieces home 2-3'].map(parseRecord),
    parseReply('OK joined q id=7 seq=0'), { layouts: new Map(), me: ME, hand: noHand(), now: 0 });
  apply(room, 'EV 1 grabbed 0 7');
  const r = apply(room, 'EV 2 swapped 0 1 7', { piece: 0, x: 0, y: 0 });
  assert.deepEqual(r.effects, [{ kind: 'endHold' }]);
  assert.deepEqual([room.pieces[0].r, room.pieces[0].c, room.pieces[1].r, room.pieces[1].c], [0, 0, 0, 1]);
  assert.equal(progress(room), 4);
});

test('solved ends every hold; next asks for the snapshot from the number before it', () => {
  const { room } = fullRoom();
  const r = apply(room, 'EV 11 solved 0 65000');
  assert.equal(room.solvedMs, 65000);
  assert.ok(room.pieces.every((p) => p.holder === 0));
  assert.deepEqual(r.effects, [{ kind: 'endHold' }, { kind: 'note', text: 'Solved in 1:05! 🎉' }]);
  assert.equal(clockNow(room, 999999), 65000, 'the clock stops at the solve');
  const n = apply(room, 'EV 12 next 1 jigsaw 3x3 on rings');
  assert.deepEqual(n.effects, [{ kind: 'note', text: 'Next puzzle: 3x3 jigsaw with rotation' }, { kind: 'endHold' }, { kind: 'next' }]);
  assert.equal(room.seq, 11);
});

test('hints, chat and watchers', () => {
  const { room } = fullRoom();
  assert.deepEqual(apply(room, 'EV 11 hint 8 2000').effects, [{ kind: 'note', text: 'bob looked at the hint' }]);
  assert.deepEqual(apply(room, 'EV 12 hint 7 2000').effects, []);
  assert.deepEqual(apply(room, 'EV 12 say 8 hi there').effects, [{ kind: 'chat', from: room.players.get(8), text: 'hi there' }]);
  assert.deepEqual(apply(room, 'EV 12 say 11 hello').effects, [{ kind: 'chat', from: { id: 11, name: 'dave' }, text: 'hello' }]);
  assert.deepEqual(apply(room, 'EV 12 say 99 who').effects, [{ kind: 'chat', from: null, text: 'who' }]);
  assert.deepEqual(apply(room, 'EV 12 watching 13 erin').effects, [{ kind: 'note', text: 'erin is watching' }, { kind: 'watchers' }]);
  assert.deepEqual(apply(room, 'EV 12 unwatching 11').effects, [{ kind: 'note', text: 'dave stopped watching' }, { kind: 'watchers' }]);
  assert.deepEqual([...room.watchers.keys()], [13]);
});

test('the clock\'s text', () => {
  assert.equal(clockText(0), '0:00');
  assert.equal(clockText(33_999), '0:33');
  assert.equal(clockText(3_725_000), '1:02:05');
});

test('a page opened again goes to the room its address names, else the one it was in', async () => {
  const { startRoom, roomKey } = await import('../../Sources/CWebPage/Page/state.js');
  const valid = (n) => /^[A-Za-z0-9_.-]{1,24}$/.test(n);
  assert.deepEqual(startRoom('den', 'lobby', valid), { room: 'den', from: 'address' });
  assert.deepEqual(startRoom('', 'lobby', valid), { room: 'lobby', from: 'storage' });
  assert.deepEqual(startRoom('bad room', 'lobby', valid), { room: 'lobby', from: 'storage' }, 'a bad #ROOM is no choice');
  assert.equal(startRoom('', null, valid), null);
  assert.equal(startRoom('', '<x>', valid), null, 'damaged storage is no room');
  assert.equal(roomKey('h:7171', 'ann'), 'puzzle-room:room:h:7171:ann');
});
