// lens.js: the player's own view of a big table (edges, loose, find), the
// ruler marks, the mini-map's box, name tags that do not overlap, the view
// scrolling under a piece carried to the edge, and the chat line's limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createLens, isEdge, hidden, dimmed, marked, find, setFilter, rulerMarks, mapBox, onMap, centredOn, mapToTable,
  stackTags, edgeVelocity, chatLine,
} from '../../Sources/CWebPage/Page/lens.js';
import { createRoom, newPiece } from '../../Sources/CWebPage/Page/state.js';

/** A 5x5 jigsaw: pieces 0..24 on a 52 x 28 table, the board at (16, 4);
 *  piece 6 loose (an inner piece), 0 loose (a corner), 12 placed (inner), 4 placed (edge). */
function room5x5() {
  const room = createRoom();
  Object.assign(room, { kind: 'jigsaw', rows: 5, cols: 5, table: { w: 52, h: 28, bx: 16, by: 4 } });
  room.pieces = Array.from({ length: 25 }, (_, i) => Object.assign(newPiece(i), { x: 2, y: 2, dx: 2, dy: 2 }));
  Object.assign(room.pieces[12], { cell: true, r: 2, c: 2 });
  Object.assign(room.pieces[4], { cell: true, r: 0, c: 4 });
  return room;
}

test('edge pieces are those whose home cell is on the border', () => {
  const room = room5x5();
  assert.deepEqual([0, 4, 5, 9, 20, 24].map((i) => isEdge(room, i)), [true, true, true, true, true, true]);
  assert.deepEqual([6, 7, 12, 18].map((i) => isEdge(room, i)), [false, false, false, false]);
});

test('edges only hides loose inner pieces (not held, not found) and dims placed inner ones; loose dims every placed one', () => {
  const room = room5x5(), lens = createLens();
  const p = room.pieces;
  assert.ok(!hidden(lens, room, p[6]) && !dimmed(lens, room, p[12]), 'all: nothing hidden or dimmed');
  assert.match(setFilter(lens, 'edges'), /Edge pieces only/);
  assert.ok(hidden(lens, room, p[6]) && !hidden(lens, room, p[0]), 'loose inner hidden, edge shown');
  assert.ok(dimmed(lens, room, p[12]) && !dimmed(lens, room, p[4]), 'placed inner dimmed, placed edge not');
  p[6].holder = 3;
  assert.ok(!hidden(lens, room, p[6]), 'a held piece is in someone\'s hand: shown');
  p[6].holder = 0;
  lens.found = 6;
  assert.ok(!hidden(lens, room, p[6]), 'the found piece shows whatever the filter');
  setFilter(lens, 'loose');
  assert.ok(!hidden(lens, room, p[7]) && dimmed(lens, room, p[4]) && dimmed(lens, room, p[12]) && !dimmed(lens, room, p[6]));
});

test('find marks a loose piece, says where a placed one is, and refuses numbers out of range', () => {
  const room = room5x5(), lens = createLens();
  let r = find(lens, room, '7');
  assert.equal(lens.found, 7);
  assert.equal(r.piece.id, 7);
  assert.ok(!r.error);
  assert.equal(marked(lens, room).id, 7);
  r = find(lens, room, '#12');
  assert.equal(r.text, 'Piece 12 is on the board at row 2, column 2.');
  assert.equal(lens.found, -1);
  assert.equal(r.piece.id, 12, 'a placed piece is still brought into view');
  for (const bad of ['25', 'x', '-1', '3.5']) {
    r = find(lens, room, bad);
    assert.ok(r.error && r.piece === null, bad);
    assert.match(r.text, /pieces are 0 to 24/);
  }
  find(lens, room, '3');
  Object.assign(room.pieces[3], { cell: true, r: 0, c: 3 });
  assert.equal(marked(lens, room), null, 'the mark goes once its piece is placed');
  assert.equal(find(lens, room, '').text, 'Find mark cleared.');
});

test('ruler marks: every cell when cells are wide, every 5th or 10th when narrow, only those in sight', () => {
  const table = { w: 52, h: 28, bx: 16, by: 4 };
  const area = { x: 0, y: 50, w: 1000, h: 600 };
  // 10 px a unit: cells 40 px, a label a cell.
  let m = rulerMarks({ scale: 10, ox: 0, oy: 50 }, table, 5, 5, area);
  assert.equal(m.step, 1);
  assert.deepEqual(m.cols.map((c) => c.n), [0, 1, 2, 3, 4]);
  assert.equal(m.cols[0].at, 160 + 20);
  assert.equal(m.rows[2].at, 50 + 40 + 2 * 40 + 20);
  // 2 px a unit: cells 8 px, labels 28 px apart need a step of 5.
  m = rulerMarks({ scale: 2, ox: 0, oy: 50 }, { w: 400, h: 400, bx: 8, by: 8 }, 90, 90, area);
  assert.equal(m.step, 5);
  assert.deepEqual(m.cols.slice(0, 3).map((c) => c.n), [0, 5, 10]);
  // Too small to tell cells apart: none.
  assert.equal(rulerMarks({ scale: 1, ox: 0, oy: 0 }, table, 5, 5, area).step, 0);
  // Scrolled: the columns left of the screen are not listed.
  m = rulerMarks({ scale: 10, ox: -300, oy: 50 }, table, 5, 5, area);
  assert.deepEqual(m.cols.map((c) => c.n), [3, 4]);
});

test('the mini-map shows only when the table is not all in sight, with the view\'s rectangle on it', () => {
  const table = { w: 100, h: 50, bx: 10, by: 5 };
  const area = { x: 0, y: 40, w: 800, h: 500 };
  assert.equal(mapBox({ scale: 7, ox: 50, oy: 100 }, table, area, 160), null, 'all in sight');
  const view = { scale: 20, ox: -500, oy: 40 };
  const b = mapBox(view, table, area, 160);
  assert.ok(b);
  assert.equal(b.w, 160);
  assert.equal(b.h, 80);
  assert.equal(b.x, 800 - 160 - 8);
  assert.equal(b.y, 40 + 500 - 80 - 8);
  // The view shows table x 25..65, y 0..25: on the map at 1.6 px a unit.
  assert.ok(Math.abs(b.vx - (b.x + 25 * 1.6)) < 1e-9 && Math.abs(b.vw - 40 * 1.6) < 1e-9);
  assert.ok(Math.abs(b.vy - b.y) < 1e-9 && Math.abs(b.vh - 25 * 1.6) < 1e-9);
  assert.ok(onMap(b, b.x + 10, b.y + 10) && !onMap(b, b.x - 20, b.y));
  const t = mapToTable(b, table, b.x + 80, b.y + 40);
  assert.deepEqual(t, { x: 50, y: 25 });
  const c = centredOn(view, area, t.x, t.y);
  assert.deepEqual(c, { ox: 400 - 50 * 20, oy: 40 + 250 - 25 * 20 });
  // Near the table's corner, with the table: no empty band above or left of it.
  assert.deepEqual(centredOn(view, area, 2, 2, table), { ox: 0, oy: 40 });
  assert.deepEqual(centredOn(view, area, 98, 48, table), { ox: 800 - 2000, oy: 540 - 1000 });
  // A table smaller than the area on an axis is centred on the point as asked.
  assert.deepEqual(centredOn({ scale: 4 }, area, 50, 25, table), { ox: 200, oy: 190 });
});

test('name tags of pieces held close together are stacked, none overlapping; apart ones stay put', () => {
  const tags = [{ x: 100, y: 100, w: 60, h: 20 }, { x: 120, y: 104, w: 60, h: 20 }, { x: 110, y: 98, w: 50, h: 20 }, { x: 400, y: 100, w: 60, h: 20 }];
  const out = stackTags(tags, 2);
  assert.equal(out[0].y, 100, 'the first keeps its place');
  assert.equal(out[3].y, 100, 'one far away keeps its place');
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = out[i], b = out[j];
      const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      assert.ok(!overlap, `tags ${i} and ${j} overlap`);
    }
  }
  assert.ok(out[1].y <= 100 - 20 && out[2].y <= out[1].y - 20);
});

test('the view scrolls under a piece near an edge, faster nearer it, not past the table\'s edge', () => {
  const area = { x: 0, y: 50, w: 400, h: 700 };
  const table = { x: -1000, y: -1000, w: 3000, h: 3000 };
  assert.deepEqual(edgeVelocity({ x: 200, y: 400 }, area, table, 50, 900), { vx: 0, vy: 0 }, 'the middle: still');
  const near = edgeVelocity({ x: 390, y: 400 }, area, table, 50, 900);
  const nearer = edgeVelocity({ x: 398, y: 400 }, area, table, 50, 900);
  assert.ok(near.vx > 0 && nearer.vx > near.vx && near.vy === 0);
  assert.equal(edgeVelocity({ x: 420, y: 400 }, area, table, 50, 900).vx, 900, 'past the edge: the most');
  assert.ok(edgeVelocity({ x: 5, y: 55 }, area, table, 50, 900).vx < 0);
  assert.ok(edgeVelocity({ x: 5, y: 55 }, area, table, 50, 900).vy < 0);
  assert.ok(edgeVelocity({ x: 200, y: 745 }, area, table, 50, 900).vy > 0);
  // The table's right edge already in sight: no scrolling that way.
  assert.equal(edgeVelocity({ x: 398, y: 400 }, area, { x: -100, y: 0, w: 450, h: 900 }, 50, 900).vx, 0);
});

test('a chat line is counted in UTF-8 bytes and says how far over the limit it is, cutting nothing', () => {
  assert.deepEqual(chatLine('  hello   there ', 1020), { line: 'hello there', bytes: 11, over: 0 });
  const long = 'é'.repeat(600);
  const c = chatLine(long, 1020);
  assert.equal(c.line, long);
  assert.equal(c.bytes, 1200);
  assert.equal(c.over, 180);
  assert.equal(chatLine('a'.repeat(860), 1020).over, 0, 'the terminal\'s 860 characters fit');
});
