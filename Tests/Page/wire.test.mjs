// wire.js against the lines of Protocol/PROTOCOL.md: every kind of server
// line (replies, events, S records, goodbyes) read into its fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  linesOf, lineKind, isReply, kv, parseError, parseReply, parseEvent, parseRecord, parseBye, pieceIds, startLayout,
} from '../../Sources/CWebPage/Page/wire.js';

const b64 = (bytes) => Buffer.from(bytes).toString('base64');

test('a message is split into lines, CR removed, empty lines dropped', () => {
  assert.deepEqual(linesOf('OK said\r\nEV 3 say 1 hi\n\n'), ['OK said', 'EV 3 say 1 hi']);
  assert.deepEqual(['OK', 'ERR', 'PONG', 'S', 'EV', 'BYE'].map((k) => lineKind(`${k} x`)), ['OK', 'ERR', 'PONG', 'S', 'EV', 'BYE']);
  assert.equal(lineKind('PONG'), 'PONG');
  assert.ok(isReply('OK') && isReply('ERR') && isReply('PONG') && !isReply('S') && !isReply('EV') && !isReply('BYE'));
  assert.deepEqual(kv('OK hello version=2 id=7 name=a=b'), { version: '2', id: '7', name: 'a=b' });
});

test('errors: the code and the text', () => {
  assert.deepEqual(parseError("ERR HELD piece 3 is held by alice (#1)"), { code: 'HELD', text: 'piece 3 is held by alice (#1)' });
  assert.deepEqual(parseError('ERR NO_HELLO'), { code: 'NO_HELLO', text: '' });
  assert.deepEqual(parseReply('ERR ROOM_FULL room full'), { ok: false, code: 'ROOM_FULL', text: 'room full' });
});

test('every reply', () => {
  const r = (line) => parseReply(line);
  assert.deepEqual(r('PONG abc').token, 'abc');
  assert.equal(r('PONG').token, null);
  const hello = r('OK hello version=2 id=7 name=alice token=5f0c server=puzzle-room');
  assert.deepEqual([hello.verb, hello.version, hello.id, hello.name, hello.token], ['hello', 2, 7, 'alice', '5f0c']);
  assert.equal(r('OK hello version=1 id=1 name=alice server=puzzle-room').token, null);
  assert.deepEqual([r('OK created den').room, r('OK created den').asked], ['den', undefined]);
  const fitted = r('OK created den size=6x9 asked=48');
  assert.deepEqual([fitted.room, fitted.rows, fitted.cols, fitted.asked], ['den', 6, 9, 48]);
  const joined = r('OK joined lobby id=7 seq=12 run=00ff00ff00ff00ff');
  assert.deepEqual([joined.room, joined.seq, joined.run, joined.missed], ['lobby', 12, '00ff00ff00ff00ff', null]);
  assert.equal(r('OK joined lobby id=7 seq=14 run=00ff00ff00ff00ff missed=2').missed, 2);
  assert.equal(r('OK joined lobby id=7 seq=14 run=00ff00ff00ff00ff missed=0').missed, 0);
  const watching = r('OK watching den seq=3 run=0123456789abcdef');
  assert.deepEqual([watching.verb, watching.room, watching.seq], ['watching', 'den', 3]);
  const sync = r('OK sync seq=9 digest=abc run=0123456789abcdef missed=1');
  assert.deepEqual([sync.seq, sync.digest, sync.missed], [9, 'abc', 1]);
  const layout = r('OK layout 9 puzzle=0 seed=7191089600892374487');
  assert.deepEqual([layout.count, layout.puzzle, layout.seed], [9, 0, '7191089600892374487']);
  const picture = r('OK picture 32 32 0123456789abcdef');
  assert.deepEqual([picture.width, picture.height, picture.hash], [32, 32, '0123456789abcdef']);
  assert.equal(r('OK grabbed 4').piece, 4);
  const dragged = r('OK dragged 4 12 8 1,2');
  assert.deepEqual([dragged.piece, dragged.x, dragged.y, dragged.target], [4, 12, 8, '1,2']);
  assert.equal(r('OK dragged 4 0 0 -').target, '-');
  assert.deepEqual([r('OK rotated 4 3').piece, r('OK rotated 4 3').rotation], [4, 3]);
  assert.deepEqual([r('OK dropped 4 cell 1 2').outcome, r('OK dropped 4 cell 1 2').solved], ['cell 1 2', false]);
  assert.deepEqual([r('OK dropped 8 cell 2 2 solved').outcome, r('OK dropped 8 cell 2 2 solved').solved], ['cell 2 2', true]);
  assert.equal(r('OK dropped 4 table 5 0').outcome, 'table 5 0');
  assert.equal(r('OK dropped 4 swapped cell 0 1').outcome, 'swapped cell 0 1');
  assert.equal(r('OK dropped 4 returned').outcome, 'returned');
  assert.equal(r('OK released 4').piece, 4);
  assert.deepEqual([r('OK kept 4 29000').piece, r('OK kept 4 29000').leaseLeft], [4, 29000]);
  assert.equal(r('OK hint 2000').ms, 2000);
  const next = r('OK next 1 jigsaw 4x5');
  assert.deepEqual([next.puzzle, next.roomKind, next.rows, next.cols], [1, 'jigsaw', 4, 5]);
  assert.equal(r('OK said').verb, 'said');
  const upload = r('OK upload trip bytes=2716431 line=1016');
  assert.deepEqual([upload.picture, upload.bytes, upload.lineChars], ['trip', 2716431, 1016]);
  const uploaded = r('OK uploaded trip 4000x3000 sha256=5f1c');
  assert.deepEqual([uploaded.picture, uploaded.width, uploaded.height, uploaded.sha256], ['trip', 4000, 3000, '5f1c']);
  assert.equal(r('OK created den').room, 'den');
  assert.equal(r('OK left den').room, 'den');
  for (const verb of ['rooms', 'who', 'help', 'history']) assert.equal(r(`OK ${verb} 3`).count, 3);
  const replay = r('OK replay 0 8192 more=8192');
  assert.deepEqual([replay.puzzle, replay.moves, replay.more], [0, 8192, 8192]);
  assert.equal(r('OK replay 0 5').more, null);
  assert.equal(r('OK stats connections=3 rooms=1').values.connections, '3');
  assert.equal(r('OK bye').verb, 'bye');
});

test('every event', () => {
  const e = parseEvent;
  assert.deepEqual(e('EV 5 joined 7 alice'), { seq: 5, kind: 'joined', sequenced: true, id: 7, name: 'alice' });
  assert.deepEqual(e('EV 5 joined 7 alice color=4'), { seq: 5, kind: 'joined', sequenced: true, id: 7, name: 'alice', color: 4 });
  assert.equal(e('EV 5 watching 7 color=4').name, 'color=4', 'a watcher named so is only a name');
  assert.deepEqual(e('EV 6 left 7'), { seq: 6, kind: 'left', sequenced: true, id: 7 });
  assert.deepEqual(e('EV 7 grabbed 3 7'), { seq: 7, kind: 'grabbed', sequenced: true, piece: 3, id: 7 });
  assert.deepEqual(e('EV 7 dragged 3 7 12 4 0,1'), { seq: 7, kind: 'dragged', sequenced: false, piece: 3, id: 7, x: 12, y: 4, target: '0,1' });
  assert.deepEqual(e('EV 8 rotated 3 7 1 -'), { seq: 8, kind: 'rotated', sequenced: true, piece: 3, id: 7, rotation: 1, target: '-' });
  assert.deepEqual(e('EV 9 placed 3 7 cell 1 0 0'), { seq: 9, kind: 'placed', sequenced: true, piece: 3, id: 7, cell: true, row: 1, col: 0, rotation: 0 });
  assert.deepEqual(e('EV 9 placed 3 7 table 20 5 2'), { seq: 9, kind: 'placed', sequenced: true, piece: 3, id: 7, cell: false, x: 20, y: 5, rotation: 2 });
  assert.deepEqual(e('EV 10 swapped 3 5 7'), { seq: 10, kind: 'swapped', sequenced: true, piece: 3, other: 5, id: 7 });
  assert.deepEqual(e('EV 11 released 3 7'), { seq: 11, kind: 'released', sequenced: true, piece: 3, id: 7 });
  assert.deepEqual(e('EV 12 expired 3 7'), { seq: 12, kind: 'expired', sequenced: true, piece: 3, id: 7 });
  assert.deepEqual(e('EV 13 returned 3 7 left'), { seq: 13, kind: 'returned', sequenced: true, piece: 3, id: 7, why: 'left' });
  assert.equal(e('EV 13 returned 3 7 no_target').why, 'no_target');
  assert.deepEqual(e('EV 14 solved 0 8021'), { seq: 14, kind: 'solved', sequenced: true, puzzle: 0, elapsed: 8021 });
  assert.deepEqual(e('EV 15 next 1 swap 4x5 off waves'),
    { seq: 15, kind: 'next', sequenced: true, puzzle: 1, roomKind: 'swap', size: '4x5', rows: 4, cols: 5, rotation: false, picture: 'waves' });
  assert.equal(e('EV 15 next 1 jigsaw 4x4 on sunset').rotation, true);
  assert.deepEqual(e('EV 16 hint 7 2000'), { seq: 16, kind: 'hint', sequenced: true, id: 7, ms: 2000 });
  assert.deepEqual(e('EV 17 forgotten 7'), { seq: 17, kind: 'forgotten', sequenced: true, id: 7 });
  assert.deepEqual(e('EV 17 say 7 hello  there'), { seq: 17, kind: 'say', sequenced: false, id: 7, text: 'hello  there' });
  assert.deepEqual(e('EV 17 watching 9 bob'), { seq: 17, kind: 'watching', sequenced: false, id: 9, name: 'bob' });
  assert.deepEqual(e('EV 17 unwatching 9'), { seq: 17, kind: 'unwatching', sequenced: false, id: 9 });
  assert.deepEqual(e('EV 18 tidied 1'), { seq: 18, kind: 'tidied', sequenced: true });
});

test('every S record', () => {
  const s = parseRecord;
  const room = s('S room lobby kind=jigsaw size=3x4 rotation=off picture=sunset puzzle=2 seq=9 seed=7 lease=30000 hint=2000 hold=1 elapsed=500 solved=- first=jigsaw,3x3,off,sunset clock=running pictures=cycle lid=on');
  assert.deepEqual([room.name, room.roomKind, room.rows, room.cols, room.values.seed, room.values.lid, room.listedSolved], ['lobby', 'jigsaw', 3, 4, '7', 'on', false]);
  const listed = s('S room den kind=swap size=3x3 rotation=off players=1 password=yes puzzle=0 progress=9/9 watchers=2 seats=2 solved');
  assert.deepEqual([listed.values.players, listed.values.password, listed.values.progress, listed.values.seats, listed.listedSolved], ['1', 'yes', '9/9', '2', true]);
  assert.deepEqual(s('S player 7 3 1 - alice b'), { kind: 'player', id: 7, moves: 3, hintUsed: true, hintLeft: '-', name: 'alice b' });
  assert.deepEqual(s('S total 7 40'), { kind: 'total', id: 7, moves: 40 });
  assert.deepEqual(s('S color 7 2'), { kind: 'color', id: 7, slot: 2 });
  assert.deepEqual(s('S absent 8 2 10 0 bob'), { kind: 'absent', id: 8, moves: 2, totalMoves: 10, hintUsed: false, name: 'bob' });
  assert.deepEqual(s('S former 4 12'), { kind: 'former', moves: 4, totalMoves: 12 });
  assert.deepEqual(s('S watcher 9 carol'), { kind: 'watcher', id: 9, name: 'carol' });
  assert.deepEqual(s('S clock 8021 paused'), { kind: 'clock', elapsed: 8021, running: false });
  assert.equal(s('S clock 8021').kind, 'unreadable');
  assert.deepEqual(s('S piece 3 cell 1 0 2'), { kind: 'piece', id: 3, cell: true, row: 1, col: 0, rotation: 2 });
  assert.deepEqual(s('S piece 4 table 25 5 0'), { kind: 'piece', id: 4, cell: false, x: 25, y: 5, rotation: 0 });
  assert.deepEqual(s('S pieces home 0-3,5'), { kind: 'pieces', set: 'home', bits: null, ranges: '0-3,5' });
  assert.deepEqual(s('S pieces start bits gA=='), { kind: 'pieces', set: 'start', bits: 'gA==', ranges: '' });
  assert.deepEqual(s('S hold 3 7 13 6 1 1,2 25000'), { kind: 'hold', piece: 3, holder: 7, x: 13, y: 6, rotation: 1, target: '1,2', leaseLeft: 25000 });
  assert.deepEqual(s('S table 36 20 12 4'), { kind: 'table', width: 36, height: 20, boardX: 12, boardY: 4 });
  assert.deepEqual(s('S edges tbtbtb bttbbt'), { kind: 'edges', right: 'tbtbtb', bottom: 'bttbbt' });
  assert.deepEqual(s('S picture 32 32 0123456789abcdef'), { kind: 'picture', width: 32, height: 32, hash: '0123456789abcdef' });
  assert.equal(s('S picture 32 32').hash, '');
  assert.deepEqual(s('S px ff000000ff00'), { kind: 'px', row: 'ff000000ff00' });
  assert.deepEqual(s('S png iVBO'), { kind: 'png', data: 'iVBO' });
  assert.deepEqual(s('S jpeg /9j/'), { kind: 'jpeg', data: '/9j/' });
  assert.deepEqual(s('S start table AAEC'), { kind: 'start', form: 'table', data: 'AAEC' });
  assert.deepEqual(s('S who 7 alice moves=3 holding=4'), { kind: 'who', id: 7, name: 'alice', watching: false, moves: 3, holding: '4' });
  assert.deepEqual(s('S who 9 carol watching'), { kind: 'who', id: 9, name: 'carol', watching: true, moves: 0, holding: '-' });
  assert.deepEqual(s('S help GRAB <piece>'), { kind: 'help', text: 'GRAB <piece>' });
  assert.deepEqual(s('S history 0 jigsaw 2x2 off sunset elapsed=8021 moves=5 players=2'),
    { kind: 'history', puzzle: 0, roomKind: 'jigsaw', rows: 2, cols: 2, rotation: false, picture: 'sunset', elapsed: 8021, moves: 5, players: 2 });
  assert.deepEqual(s('S history-player 0 1 placed=2 moves=3 alice'), { kind: 'history-player', puzzle: 0, id: 1, placed: 2, moves: 3, name: 'alice' });
  const start = s('S replay-start 0 jigsaw 2x2 off sunset seed=7191089600892374487 elapsed=8021 moves=5 players=2');
  assert.deepEqual([start.puzzle, start.rows, start.seed, start.moves, start.truncated], [0, 2, '7191089600892374487', 5, false]);
  assert.equal(s('S replay-start 0 jigsaw 2x2 off sunset seed=7 elapsed=1 moves=100001 players=1 truncated').truncated, true);
  assert.deepEqual(s('S replay-player 1 placed=2 moves=3 alice'), { kind: 'replay-player', id: 1, placed: 2, moves: 3, name: 'alice' });
  assert.deepEqual(s('S replay 1203 1 placed 0 cell 0 0 0'), { kind: 'replay', elapsed: 1203, id: 1, move: 'placed', piece: 0, cell: true, row: 0, col: 0, rotation: 0 });
  assert.deepEqual(s('S replay 2210 1 placed 3 table 0 5 1'), { kind: 'replay', elapsed: 2210, id: 1, move: 'placed', piece: 3, cell: false, x: 0, y: 5, rotation: 1 });
  assert.deepEqual(s('S replay 6011 2 swapped 4 7'), { kind: 'replay', elapsed: 6011, id: 2, move: 'swapped', piece: 4, other: 7 });
  assert.deepEqual(s('S sparkle 1 2'), { kind: 'sparkle', line: 'S sparkle 1 2' }, 'unknown kinds are kept for later versions');
});

test('goodbyes', () => {
  assert.deepEqual(parseBye('BYE FULL server is full (3 connections)'), { code: 'FULL', text: 'FULL server is full (3 connections)' });
  assert.equal(parseBye('BYE').code, '');
});

test('piece sets: ranges and bitmaps, cut at the puzzle\'s pieces', () => {
  assert.deepEqual(pieceIds(parseRecord('S pieces home 0-3,5,9-12'), 100), [0, 1, 2, 3, 5, 9, 10, 11, 12]);
  assert.deepEqual(pieceIds(parseRecord('S pieces home 7-12'), 9), [7, 8]);
  // Piece i is bit 0x80 >> (i mod 8) of byte i div 8: 0b10100000, 0b01000000 are 0, 2 and 9.
  assert.deepEqual(pieceIds(parseRecord(`S pieces start bits ${b64([0xa0, 0x40])}`), 16), [0, 2, 9]);
  assert.deepEqual(pieceIds(parseRecord(`S pieces start bits ${b64([0xff, 0xff])}`), 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('a start layout: three bytes a piece, or a line a piece', () => {
  const records = [`S start table ${b64([0, 1, 0, 7, 0, 3])}`, `S start table ${b64([2, 2, 1])}`].map(parseRecord);
  assert.deepEqual(startLayout(records), [
    { cell: false, x: 0, y: 5, rot: 0 }, { cell: false, x: 35, y: 0, rot: 3 }, { cell: false, x: 10, y: 10, rot: 1 }]);
  assert.deepEqual(startLayout([parseRecord(`S start cell ${b64([1, 2, 0])}`)]), [{ cell: true, r: 1, c: 2, rot: 0 }]);
  assert.deepEqual(startLayout(['S piece 1 cell 0 1 0', 'S piece 0 table 300 5 2'].map(parseRecord)),
    [{ cell: false, x: 300, y: 5, rot: 2 }, { cell: true, r: 0, c: 1, rot: 0 }]);
});
