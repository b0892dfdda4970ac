// The replay viewer: a kept solve played back over the table, on a canvas
// of its own with its own room (replays.js), while the live room goes on
// underneath (its events keep applying; leaving shows it as it is now).
// Asks `LAYOUT <puzzle>` (that puzzle's table, edges and start) and
// `REPLAY <puzzle>`, following `more=` for the later pages while it plays.
// Speeds, pause and play, a move on or back, the start, the end; the wheel
// and a drag zoom and pan its view.

import { $ } from './dom.js';
import { PAD, UNIT, fitView, glide, pictureWidth, spriteSize, zOrder, zoomedView, pannedOffset, fitScale } from './geometry.js';
import { createCutter } from './cutter.js';
import { clockText, colorOf, nameOf } from './state.js';
import { now, req } from './link.js';
import { me, room as liveRoom } from './session.js';
import { pictureFromRows } from './pictures.js';
import { showError } from './notices.js';
import {
  readReplay, addPage, createPlayback, advance, togglePause, changeSpeed, step, stepBack, rewind, toEnd, atEnd,
  pagesChanged, movesShown, movesKept, clockShown, lastMoveText, statsText,
} from './replays.js';

const NO_HAND = { piece: -1, x: 0, y: 0 };
/** pb: the playback (null: closed); more: the next page's first move (null: none);
 *  loading: LAYOUT and REPLAY asked; view: its own, fitted until zoomed or panned. */
const rv = { pb: null, puzzle: -1, more: null, loading: false, ask: 0, picture: null, sharp: 0,
  view: { scale: 8, ox: 0, oy: 0, fitted: true }, dpr: 1, cw: 0, ch: 0, frameAsked: false, last: 0, drag: null };

export const replayOpen = () => rv.pb !== null || rv.loading;

/** Opens the replay of a solved puzzle the room keeps. */
export function openReplay(puzzle) {
  if (rv.loading) return;
  rv.loading = true;
  const ask = ++rv.ask;
  let layout = null;
  const failed = (code, text) => {
    if (ask === rv.ask) rv.loading = false;
    if (code !== 'LINK') showError(code, text);
    return true;
  };
  req(`LAYOUT ${puzzle}`, (r, records) => { layout = records; }, failed);
  req(`REPLAY ${puzzle}`, (r, records) => {
    if (ask !== rv.ask || !layout) return;
    rv.loading = false;
    start(puzzle, readReplay(records), layout, r.more);
  }, failed);
}

function start(puzzle, replay, layout, more) {
  // The live room's players keep their colours here.
  const slots = new Map();
  for (const pl of liveRoom.players.values()) if (pl.present && pl.slot >= 0) slots.set(pl.id, pl.slot);
  rv.pb = createPlayback(replay, layout, { speed: 4, now: now(), slots });
  rv.puzzle = puzzle;
  rv.more = more;
  rv.sharp = 0; rv.moving = true;
  rv.picture = replay.image.rows.length ? pictureFromRows(replay.image.width, replay.image.height, replay.image.rows) : null;
  cutter.forgetShapes();
  $('replay').hidden = false;
  rv.view.fitted = true;
  $('replay-title').textContent = `Replay · puzzle ${replay.puzzle} · ${replay.kind} ${replay.rows}×${replay.cols}`;
  if (more !== null) fetchPage(replay, more);
  $('replay-play').focus({ preventScroll: true });
  needFrame();
  sharpen(replay);
}

/** The replay's picture as sharp as the screen needs (REPLAY's is the
 *  terminal's, 8 pixels a cell): `/picture/<room>?puzzle=<n>`, drawn at the
 *  width the fitted board takes; REPLAY's meanwhile, or if it fails. */
function sharpen(replay) {
  const a = area();
  const scale = fitScale({ table: rv.pb.room.table, kind: replay.kind }, a);
  const want = pictureWidth(replay.cols * UNIT * scale * (window.devicePixelRatio || 1), replay.rows, replay.cols);
  fetch(`/picture/${encodeURIComponent(me.room)}?w=${want}&puzzle=${replay.puzzle}`, { cache: 'no-cache' })
    .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.blob(); })
    .then((b) => createImageBitmap(b))
    .then((bmp) => {
      if (!rv.pb || rv.pb.replay !== replay) return;
      rv.picture = bmp; rv.sharp = bmp.width;
      cutter.forgetSprites();
      needFrame();
    })
    .catch(() => { /* REPLAY's picture stays */ });
}

/** The next page of moves, while the first ones play. */
function fetchPage(replay, from) {
  req(`REPLAY ${replay.puzzle} ${from}`, (r, records) => {
    if (!rv.pb || rv.pb.replay !== replay) return;
    addPage(replay, records);
    pagesChanged(rv.pb);
    rv.more = r.more;
    if (r.more !== null && r.moves > 0) fetchPage(replay, r.more);
    else rv.more = null;
    needFrame();
  }, (code) => { if (rv.pb && rv.pb.replay === replay) rv.more = null; return code === 'LINK' || code === 'UNKNOWN_PUZZLE'; });
}

export function closeReplay() {
  rv.ask++;
  rv.pb = null; rv.loading = false; rv.more = null; rv.picture = null;
  cutter.forgetShapes();
  $('replay').hidden = true;
  $('table').focus({ preventScroll: true });
}

// ------------------------------------------------------------------ controls
function act(what) {
  const pb = rv.pb;
  if (!pb) return;
  const t = now();
  switch (what) {
    case 'play':
      // At the end: again from the start.
      if (atEnd(pb, rv.more !== null)) rewind(pb, t, false);
      else togglePause(pb, t);
      break;
    case 'next': step(pb, t); break;
    case 'prev': stepBack(pb, t); break;
    // Paused (or sent to the end) stays paused, to step from the start; playing plays on.
    case 'restart': rewind(pb, t, pb.paused); break;
    case 'end': toEnd(pb, t); pb.paused = true; break;
    case 'faster': changeSpeed(pb, true, t); break;
    case 'slower': changeSpeed(pb, false, t); break;
    default: break;
  }
  rv.moving = true; // until a frame finds every piece where it goes
  needFrame();
}

function updateBar() {
  const pb = rv.pb, r = pb.replay, more = rv.more !== null;
  const end = atEnd(pb, more);
  $('replay-clock').textContent = clockText(clockShown(pb, more));
  $('replay-speed').textContent = `${pb.speed}×`;
  const playing = !pb.paused && !end;
  const play = $('replay-play');
  play.classList.toggle('playing', playing);
  play.classList.toggle('again', end);
  play.title = end ? 'Again (Space)' : playing ? 'Pause (Space)' : 'Play (Space)';
  play.setAttribute('aria-label', end ? 'Again' : playing ? 'Pause' : 'Play');
  const total = Math.max(r.moves, movesKept(r));
  $('replay-move').textContent = end
    ? (r.truncated ? `The kept moves end here · ${statsText(r.moves, r.players)}`
      : `Solved in ${clockText(r.elapsed)} · ${statsText(r.moves, r.players)}`)
    : `Move ${movesShown(pb)}/${total} · ${lastMoveText(pb)}${pb.paused ? ' · paused' : ''}`;
  $('replay-prev').disabled = pb.shown === 0;
  $('replay-next').disabled = pb.shown >= r.steps.length;
}

function keyDown(e) {
  if (!rv.pb || e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = { ' ': 'play', Enter: 'play', k: 'play', ArrowRight: 'next', ArrowLeft: 'prev', Home: 'restart', End: 'end',
    ArrowUp: 'faster', '+': 'faster', '=': 'faster', ArrowDown: 'slower', '-': 'slower' };
  if (e.key === 'Escape' || e.key === 'Backspace') closeReplay();
  else if (keys[e.key]) act(keys[e.key]);
  else if (e.key === '0' || e.key === 'f') { rv.view.fitted = true; needFrame(); }
  // Keys are the viewer's while it is open: the live table underneath takes none.
  e.preventDefault();
  e.stopPropagation();
}

export function setUpReplayView() {
  for (const [id, what] of [['replay-play', 'play'], ['replay-next', 'next'], ['replay-prev', 'prev'], ['replay-restart', 'restart'],
    ['replay-end', 'end'], ['replay-faster', 'faster'], ['replay-slower', 'slower']]) {
    $(id).addEventListener('click', () => act(what));
  }
  $('replay-back').addEventListener('click', closeReplay);
  window.addEventListener('keydown', keyDown, true);
  window.addEventListener('resize', needFrame);
  const c = $('replay-canvas');
  c.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (!rv.pb) return;
    const minScale = fitScale(rv.pb.room, area()) * 0.5;
    Object.assign(rv.view, zoomedView(rv.view, e.clientX, e.clientY, Math.exp(-e.deltaY * 0.002), minScale));
    rv.view.fitted = false;
    needFrame();
  }, { passive: false });
  c.addEventListener('pointerdown', (e) => { rv.drag = { x: e.clientX, y: e.clientY }; c.setPointerCapture(e.pointerId); });
  c.addEventListener('pointermove', (e) => {
    if (!rv.drag || !rv.pb) return;
    Object.assign(rv.view, pannedOffset(rv.view, rv.pb.room.table, e.clientX - rv.drag.x, e.clientY - rv.drag.y, c.clientWidth, c.clientHeight));
    rv.drag = { x: e.clientX, y: e.clientY };
    rv.view.fitted = false;
    needFrame();
  });
  const up = () => { rv.drag = null; };
  c.addEventListener('pointerup', up);
  c.addEventListener('pointercancel', up);
  // For the browser tests: where the replay is.
  window.puzzleReplay = {
    state: () => {
      const pb = rv.pb;
      if (!pb) return { open: false, loading: rv.loading };
      return { open: true, puzzle: rv.puzzle, shown: pb.shown, steps: pb.replay.steps.length, moves: movesShown(pb), paused: pb.paused,
        speed: pb.speed, atEnd: atEnd(pb, rv.more !== null), more: rv.more, move: $('replay-move').textContent,
        placed: pb.room.pieces.filter((p) => p.cell && p.r * pb.room.cols + p.c === p.id).length,
        parts: pb.room.parts.size, settled: !rv.moving, sharp: rv.sharp };
    },
  };
}

// ------------------------------------------------------------------ drawing
function needFrame() {
  if (rv.frameAsked || !rv.pb) return;
  rv.frameAsked = true;
  requestAnimationFrame(frame);
}

function frame(t) {
  rv.frameAsked = false;
  if (!rv.pb) return;
  advance(rv.pb, now());
  const dt = rv.last ? Math.min(100, t - rv.last) : 16;
  rv.last = t;
  const moving = glide(rv.pb.room, -1, NO_HAND, dt);
  rv.moving = moving;
  draw();
  updateBar();
  if (moving || (!rv.pb.paused && !atEnd(rv.pb, rv.more !== null))) needFrame();
  else rv.last = 0;
}

/** The screen the table has: under the viewer's top and above its controls. */
function area() {
  const top = $('replay-top').getBoundingClientRect().bottom, bottom = $('replay-controls').getBoundingClientRect().top;
  const c = $('replay-canvas');
  return { x: 0, y: top, w: c.clientWidth, h: Math.max(50, bottom - top) };
}

const cutter = createCutter(() => rv.pb.room, () => rv.picture);

function draw() {
  const c = $('replay-canvas'), ctx = c.getContext('2d');
  const room = rv.pb.room;
  rv.dpr = window.devicePixelRatio || 1;
  const w = Math.round(c.clientWidth * rv.dpr), h = Math.round(c.clientHeight * rv.dpr);
  if (w !== rv.cw || h !== rv.ch) { rv.cw = w; rv.ch = h; c.width = w; c.height = h; }
  if (rv.view.fitted) Object.assign(rv.view, fitView(room, area()));
  const dpr = rv.dpr, k = rv.view.scale * dpr, T = room.table;
  const side = spriteSize(UNIT * k, w * h, room.rows * room.cols);
  cutter.resize(side);
  const X = (x) => rv.view.ox * dpr + x * k, Y = (y) => rv.view.oy * dpr + y * k;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#0e1318';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = room.kind === 'jigsaw' ? '#2d3a46' : '#222c36';
  ctx.fillRect(X(0), Y(0), T.w * k, T.h * k);
  const bx = X(T.bx), by = Y(T.by), bw = room.cols * UNIT * k, bh = room.rows * UNIT * k;
  ctx.fillStyle = '#141c24';
  ctx.fillRect(bx, by, bw, bh);
  ctx.strokeStyle = 'rgba(255,255,255,0.25)';
  ctx.lineWidth = Math.max(1, dpr);
  ctx.strokeRect(bx - 0.5, by - 0.5, bw + 1, bh + 1);
  const cell = UNIT * k, size = cell * (1 + 2 * PAD);
  const place = (p) => {
    const cx = X(p.dx + UNIT / 2), cy = Y(p.dy + UNIT / 2), ang = p.drot * Math.PI / 2;
    ctx.setTransform(Math.cos(ang), Math.sin(ang), -Math.sin(ang), Math.cos(ang), cx, cy);
  };
  const order = zOrder(room);
  for (const p of order) {
    if (!p.cell) continue;
    place(p); ctx.drawImage(cutter.spriteOf(p, 1), -size / 2, -size / 2, size, size);
  }
  for (const p of order) {
    if (p.cell) continue;
    place(p); ctx.drawImage(cutter.spriteOf(p, p.part >= 0 ? 2 : 0), -size / 2, -size / 2, size, size);
  }
  // A part's outline around it all, none between its pieces.
  for (const p of order) {
    if (p.cell || p.part < 0) continue;
    const path = cutter.outerPathOf(p);
    if (!path) continue;
    place(p); ctx.scale(cell, cell); ctx.translate(-0.5, -0.5);
    ctx.strokeStyle = 'rgba(0,0,0,0.8)'; ctx.lineWidth = 1.5 * dpr / cell;
    ctx.stroke(path);
  }
  // The latest move's piece in its mover's colour, with their name.
  const m = room.lastMove, moved = m && rv.pb.shown && !atEnd(rv.pb, rv.more !== null) ? room.pieces[m.piece] : null;
  if (moved) {
    const color = colorOf(room, m.id);
    place(moved); ctx.scale(cell, cell); ctx.translate(-0.5, -0.5);
    ctx.strokeStyle = color; ctx.lineWidth = 3 * dpr / cell;
    ctx.stroke(cutter.pathOf(moved.id));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.font = `600 ${12 * dpr}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    const label = nameOf(room, m.id), tw = ctx.measureText(label).width + 12 * dpr, th = 20 * dpr;
    const x = X(moved.dx + UNIT / 2) - tw / 2, y = Y(moved.dy) - th - cell * 0.12 - 2 * dpr;
    ctx.fillStyle = color;
    ctx.fillRect(x, y, tw, th);
    ctx.fillStyle = '#111';
    ctx.fillText(label, x + 6 * dpr, y + th / 2 + dpr);
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}
