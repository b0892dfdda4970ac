// geometry.js: table units, the view's math (fit, zoom, pan, pinch), hit
// tests, outlines from `S edges`, and the sizes asked of sprites and /picture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  UNIT, PAD, MAX_SCALE, posOf, goal, setRotGoal, toTable, toScreen, cellTarget, clampPos, fitScale, fitView, zoomedView,
  pannedOffset, pinchedView, pieceAt, zOrder, rightEdge, bottomEdge, outline, spriteSize, pictureWidth, glide,
} from '../../Sources/CWebPage/Page/geometry.js';
import { createRoom, newPiece } from '../../Sources/CWebPage/Page/state.js';

const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} is not ${b}`);

/** A 3x3 jigsaw's table as PROTOCOL.md gives it: 36 × 20 units, the board at (12, 4). */
function room3x3() {
  const room = createRoom();
  Object.assign(room, { kind: 'jigsaw', rows: 3, cols: 3, table: { w: 36, h: 20, bx: 12, by: 4 } });
  return room;
}

test('a piece in a cell lies at the board corner plus 4 units a cell; on the table at its point', () => {
  const room = room3x3();
  assert.deepEqual(posOf(room, { cell: true, r: 2, c: 1 }), { x: 16, y: 12 });
  assert.deepEqual(posOf(room, { cell: false, x: 30, y: 0 }), { x: 30, y: 0 });
  const p = Object.assign(newPiece(4), { cell: true, r: 1, c: 1, rot: 2 });
  assert.deepEqual(goal(room, p, 7, { piece: -1 }), { x: 16, y: 8, rot: 2 });
  Object.assign(p, { holder: 8, hx: 3, hy: 4, hrot: 1 });
  assert.deepEqual(goal(room, p, 7, { piece: -1 }), { x: 3, y: 4, rot: 1 }, 'another holder: their last drag');
  p.holder = 7;
  assert.deepEqual(goal(room, p, 7, { piece: 4, x: 9, y: 9 }), { x: 9, y: 9, rot: 1 }, 'mine: where my hand is');
});

test('turns go the short way round', () => {
  const p = { rotGoal: 0 };
  setRotGoal(p, 3); assert.equal(p.rotGoal, -1);
  setRotGoal(p, 1); assert.equal(p.rotGoal, 1, 'from 3 (as -1) to 1: a half turn, taken forward');
  setRotGoal(p, 2); assert.equal(p.rotGoal, 2);
  setRotGoal(p, 2); assert.equal(p.rotGoal, 2, 'already there');
  setRotGoal(p, 0); assert.equal(p.rotGoal, 4);
  setRotGoal(p, 3); assert.equal(p.rotGoal, 3, 'one back');
});

test('screen and table points map both ways', () => {
  const view = { scale: 8, ox: 100, oy: 50 };
  assert.deepEqual(toScreen(view, 4, 2), { x: 132, y: 66 });
  assert.deepEqual(toTable(view, 132, 66), { x: 4, y: 2 });
});

test('drop targets and points on the table', () => {
  assert.deepEqual(cellTarget('2,10'), { r: 2, c: 10 });
  assert.equal(cellTarget('-'), null);
  assert.equal(cellTarget(''), null);
  assert.equal(cellTarget('x'), null);
  // A 3x3 jigsaw: x 0...32, y 0...16 (the piece wholly on the table).
  const T = room3x3().table;
  assert.deepEqual(clampPos(T, -5, 40), { x: 0, y: 16 });
  assert.deepEqual(clampPos(T, 33, 3), { x: 32, y: 3 });
});

test('fit: the whole table with room for tabs, centred in the screen it has', () => {
  const room = room3x3();
  const area = { x: 0, y: 48, w: 1000, h: 600 };
  // Jigsaw: 2 * 0.3 * 4 units of margin for the tabs; 8 px of air each side.
  const scale = Math.min((1000 - 16) / (36 + 2 * PAD * UNIT), (600 - 16) / (20 + 2 * PAD * UNIT));
  near(fitScale(room, area), scale, 'scale');
  const v = fitView(room, area);
  near(v.ox + 36 * v.scale / 2, 500, 'centred across');
  near(v.oy + 20 * v.scale / 2, 48 + 300, 'centred down');
  room.kind = 'swap';
  near(fitScale(room, area), Math.min(984 / 36, 584 / 20), 'a swap board has no tabs');
  assert.equal(fitScale(createRoom(), area), 8, 'no table yet');
});

test('zoom keeps the point under the pointer, within its limits', () => {
  const view = { scale: 10, ox: 100, oy: 40 };
  const z = zoomedView(view, 300, 200, 2, 5);
  assert.equal(z.scale, 20);
  const before = toTable(view, 300, 200), after = toTable(z, 300, 200);
  near(after.x, before.x, 'x'); near(after.y, before.y, 'y');
  assert.equal(zoomedView(view, 0, 0, 100, 5).scale, MAX_SCALE);
  assert.equal(zoomedView(view, 0, 0, 0.01, 5).scale, 5);
});

test('pan keeps 60 px of the table in sight', () => {
  const T = { w: 36, h: 20 };
  assert.deepEqual(pannedOffset({ scale: 10, ox: 0, oy: 0 }, T, 25, -5, 800, 600), { ox: 25, oy: -5 });
  assert.deepEqual(pannedOffset({ scale: 10, ox: 0, oy: 0 }, T, 5000, 5000, 800, 600), { ox: 740, oy: 540 });
  assert.deepEqual(pannedOffset({ scale: 10, ox: 0, oy: 0 }, T, -5000, -5000, 800, 600), { ox: 60 - 360, oy: 60 - 200 });
  assert.deepEqual(pannedOffset({ scale: 10, ox: 0, oy: 0 }, null, -5000, 7, 800, 600), { ox: -5000, oy: 7 }, 'no table: no limit');
});

test('a pinch scales by the fingers\' spread and keeps the table point under them', () => {
  const start = { d0: 100, mx: 200, my: 200, scale: 10, ox: 0, oy: 0 };
  const v = pinchedView(start, { x: 100, y: 250 }, { x: 300, y: 250 }, 1);
  assert.equal(v.scale, 20);
  const t = toTable(v, 200, 250);
  near(t.x, 20, 'x'); near(t.y, 20, 'y');
});

test('hit tests: held pieces first, then loose, then placed; the topmost of each', () => {
  const room = room3x3();
  const piece = (id, dx, dy, z, extra) => Object.assign(newPiece(id), { dx, dy, z }, extra);
  room.pieces = [piece(0, 12, 4, 1, { cell: true }), piece(1, 13, 5, 3, {}), piece(2, 14, 6, 2, {}), piece(3, 15, 7, 0, { holder: 8 })];
  const order = zOrder(room);
  assert.deepEqual(order.map((p) => p.id), [3, 0, 2, 1]);
  const view = { scale: 10, ox: 0, oy: 0 };
  assert.equal(pieceAt(order, view, 155, 75).id, 3, 'the held one, though lowest');
  assert.equal(pieceAt(order, view, 145, 65).id, 1, 'loose 1 over loose 2');
  assert.equal(pieceAt(order, view, 125, 45).id, 0, 'only the placed one there');
  assert.equal(pieceAt(order, view, 5, 5), null);
});

test('outlines: a neighbour\'s tab is this piece\'s blank, the border is flat', () => {
  const room = room3x3();
  // right: rows × (cols-1); bottom: (rows-1) × cols, row-major.
  room.edges = { right: 'tbbttb', bottom: 'tbtbtb' };
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((id) => rightEdge(room, id)), [1, -1, 0, -1, 1, 0]);
  assert.deepEqual([0, 1, 2, 6, 7].map((id) => bottomEdge(room, id)), [1, -1, 1, 0, 0]);
  // The older form: a character for every piece.
  const wide = Object.assign(room3x3(), { edges: { right: '.t..b....', bottom: '' } });
  assert.equal(rightEdge(wide, 1), 1);
  assert.equal(rightEdge(wide, 4), -1);
  // The middle piece has four shaped sides; a corner piece's border sides are lines.
  const steps = outline(room, 4);
  assert.equal(steps.filter((s) => s[0] === 'C').length, 12, 'four shaped sides, three curves each');
  const corner = outline(room, 0);
  assert.deepEqual(corner[0], ['M', 0, 0]);
  assert.deepEqual(corner[1], ['L', 1, 0], 'the top border is flat');
  assert.deepEqual(corner[corner.length - 2], ['L', 0, 0], 'and the left');
  // Piece 0's right tab sticks out past x = 1; piece 1's left blank cuts in past x = 0 the same way.
  const maxX = Math.max(...corner.filter((s) => s[0] === 'C').flatMap((s) => [s[1], s[3], s[5]]));
  assert.ok(maxX > 1.2, `a tab sticks out (${maxX})`);
  const left = outline(room, 1).filter((s) => s[0] === 'C').slice(-3);
  const deepest = Math.max(...left.flatMap((s) => [s[1], s[3], s[5]]));
  assert.ok(deepest > 0.2 && deepest < 0.5, `the blank cuts in (${deepest})`);
  assert.equal(outline(Object.assign(room3x3(), { kind: 'swap' }), 4), null, 'a swap tile is square');
  assert.equal(outline(room3x3(), 4), null, 'no edges yet: square');
});

test('sprite sizes follow the zoom up a ladder, within the pixel budget', () => {
  assert.equal(spriteSize(30, 1920 * 1080, 9), 32);
  assert.equal(spriteSize(12, 1920 * 1080, 9), 12);
  assert.equal(spriteSize(1000, 1920 * 1080, 9), 384);
  // A 100x100 puzzle all on screen: 10000 sprites of at most 20e6 pixels.
  const s = spriteSize(64, 1e9, 10000);
  assert.ok(s * s * (1 + 2 * PAD) ** 2 * 10000 <= 20e6 * 1.01, `${s}`);
});

test('the picture width asked of /picture: the next step up, at most 2048 a side', () => {
  assert.equal(pictureWidth(300, 3, 3), 512);
  assert.equal(pictureWidth(100, 3, 3), 256);
  assert.equal(pictureWidth(5000, 3, 3), 2048);
  assert.equal(pictureWidth(5000, 40, 2), 102, 'a tall board: its height is the 2048');
});

test('pieces glide to their goal and stop there', () => {
  const room = room3x3();
  const p = Object.assign(newPiece(0), { cell: true, r: 0, c: 0, dx: 0, dy: 0 });
  room.pieces = [p];
  assert.equal(glide(room, 7, { piece: -1 }, 16), true);
  assert.ok(p.dx > 0 && p.dx < 12, `on its way (${p.dx})`);
  for (let i = 0; i < 200; i++) glide(room, 7, { piece: -1 }, 16);
  assert.equal(glide(room, 7, { piece: -1 }, 16), false);
  assert.deepEqual([p.dx, p.dy], [12, 4]);
});
