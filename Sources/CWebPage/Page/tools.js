// The big-puzzle tools, as the terminal has them: piece numbers, rulers, a
// mini-map (a press takes the view there), edge pieces only, loose pieces
// only, and finding a piece by its number, in a strip under the bar (targets
// a finger can hit) and on keys (I, U, M, E, O, A, G or /). What they draw
// is drawn here, over the table; the math is lens.js's.

import { $ } from './dom.js';
import { UNIT, MAX_SCALE, toScreen } from './geometry.js';
import { colorOf } from './state.js';
import { createLens, find, setFilter, rulerMarks, mapBox, onMap, centredOn, mapToTable, hidden, marked } from './lens.js';
import { me, room } from './session.js';
import { view, viewArea, layoutChanged } from './view.js';
import { needDraw } from './draw.js';
import { ensurePicture } from './pictures.js';
import { toast } from './notices.js';

/** The player's own view choices (lens.js). */
export const lens = createLens();

const FOUND = '#ffe119';

function syncButtons() {
  $('t-numbers').setAttribute('aria-pressed', String(lens.numbers));
  $('t-rulers').setAttribute('aria-pressed', String(lens.rulers));
  $('t-map').setAttribute('aria-pressed', String(lens.map));
  for (const f of ['all', 'edges', 'loose']) $(`t-${f}`).setAttribute('aria-pressed', String(lens.filter === f));
  $('b-tools').classList.toggle('on', !$('toolstrip').hidden);
}

export function toggleTools(force) {
  const el = $('toolstrip');
  el.hidden = force === undefined ? !el.hidden : !force;
  syncButtons();
  layoutChanged();
}

function toggle(key) { lens[key] = !lens[key]; syncButtons(); needDraw(); }
function filter(f) { toast(setFilter(lens, f), true); syncButtons(); needDraw(); }

/** Finds piece `text`: marks it and brings it into view, zoomed so it can be told. */
export function findPiece(text) {
  if (!room.table) return;
  const r = find(lens, room, text);
  foundIn = view.layout;
  toast(r.text, !r.error);
  if (r.piece) {
    const a = viewArea();
    if (UNIT * view.scale < 40) view.scale = Math.min(MAX_SCALE, 48 / UNIT);
    Object.assign(view, centredOn(view, a, r.piece.dx + UNIT / 2, r.piece.dy + UNIT / 2, room.table));
    view.fitted = false;
    ensurePicture();
  }
  needDraw();
}

/** A key of the tools (the table has the focus): true when it was one. */
export function toolKey(e) {
  switch (e.key) {
    case 'i': case 'I': toggle('numbers'); return true;
    case 'u': case 'U': toggle('rulers'); return true;
    case 'm': case 'M': toggle('map'); return true;
    case 'e': case 'E': filter(lens.filter === 'edges' ? 'all' : 'edges'); return true;
    case 'p': case 'P': filter(lens.filter === 'loose' ? 'all' : 'loose'); return true;
    case 'a': case 'A': filter('all'); return true;
    case 'g': case 'G': case '/':
      e.preventDefault();
      toggleTools(true);
      $('find-input').focus();
      $('find-input').select(); // the number typed next replaces the last one
      return true;
    default: return false;
  }
}

// ------------------------------------------------------------ the map
let map = null; // the map's box as last drawn (lens.mapBox)
let foundIn = ''; // the layout (view.js) the found mark was made in

/** A press at screen point `pt`: on the map, the view goes there (true). */
export function mapPress(pt) {
  if (!lens.map || !onMap(map, pt.x, pt.y)) return false;
  mapMove(pt);
  return true;
}

/** The finger or mouse moves on after a press on the map: the view follows. */
export function mapMove(pt) {
  if (!map || !room.table) return;
  const t = mapToTable(map, room.table, pt.x, pt.y);
  Object.assign(view, centredOn(view, viewArea(), t.x, t.y, room.table));
  view.fitted = false;
  ensurePicture();
  needDraw();
}

// ------------------------------------------------------------ drawing
/** Over the drawn table: piece numbers, the found mark, rulers and the map. */
export function drawTools(ctx, dpr, pieces) {
  map = null;
  if (!room.table) return;
  // A new puzzle: the old one's piece numbers mean nothing on it.
  if (view.layout !== foundIn) { foundIn = view.layout; lens.found = -1; }
  const k = view.scale * dpr, cell = UNIT * k;
  const X = (x) => view.ox * dpr + x * k, Y = (y) => view.oy * dpr + y * k;
  const W = ctx.canvas.width, H = ctx.canvas.height;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  if (lens.numbers && cell >= 16 * dpr) {
    const size = Math.min(14 * dpr, cell * 0.34);
    ctx.font = `700 ${size}px system-ui, sans-serif`;
    for (const p of pieces) {
      const x = X(p.dx + UNIT / 2), y = Y(p.dy + UNIT / 2);
      if (x < -cell || y < -cell || x > W + cell || y > H + cell || hidden(lens, room, p)) continue;
      const label = String(p.id), w = ctx.measureText(label).width + size * 0.6;
      ctx.fillStyle = 'rgba(0,0,0,0.6)';
      ctx.fillRect(x - w / 2, y - size * 0.65, w, size * 1.3);
      ctx.fillStyle = '#fff';
      ctx.fillText(label, x, y + dpr * 0.5);
    }
  }
  const f = marked(lens, room);
  if (f) {
    const x = X(f.dx + UNIT / 2), y = Y(f.dy + UNIT / 2);
    ctx.strokeStyle = FOUND;
    ctx.lineWidth = 4 * dpr;
    ctx.beginPath(); ctx.arc(x, y, cell * 0.85 + 6 * dpr, 0, 2 * Math.PI); ctx.stroke();
  }
  const a = viewArea();
  const big = room.rows * room.cols >= 100;
  const box = mapBox(view, room.table, a, Math.min(180, Math.max(110, a.w * 0.2)));
  if (lens.rulers && (big || box)) drawRulers(ctx, dpr, a);
  if (lens.map && box) { drawMap(ctx, dpr, box, pieces, f); map = box; }
  ctx.textAlign = 'start';
}

function pill(ctx, dpr, label, x, y) {
  const w = ctx.measureText(label).width + 8 * dpr, h = 16 * dpr;
  ctx.fillStyle = 'rgba(12,16,21,0.78)';
  ctx.fillRect(x - w / 2, y - h / 2, w, h);
  ctx.fillStyle = '#cfd8e0';
  ctx.fillText(label, x, y + dpr * 0.5);
}

function drawRulers(ctx, dpr, a) {
  const marks = rulerMarks(view, room.table, room.rows, room.cols, a);
  if (!marks.step) return;
  ctx.font = `600 ${11 * dpr}px system-ui, sans-serif`;
  const top = toScreen(view, room.table.bx, room.table.by);
  // Just outside the board when it is in sight, else pinned to the view's edge.
  const y = Math.max(a.y + 10, Math.min(a.y + a.h - 10, top.y - 10)) * dpr;
  const x = Math.max(a.x + 14, Math.min(a.x + a.w - 14, top.x - 14)) * dpr;
  // Where the two rulers cross, neither label is drawn over the other.
  for (const m of marks.cols) if (Math.abs(m.at * dpr - x) > 22 * dpr) pill(ctx, dpr, String(m.n), m.at * dpr, y);
  for (const m of marks.rows) if (Math.abs(m.at * dpr - y) > 16 * dpr) pill(ctx, dpr, String(m.n), x, m.at * dpr);
}

function drawMap(ctx, dpr, b, pieces, found) {
  const T = room.table, k = b.k * dpr, x0 = b.x * dpr, y0 = b.y * dpr;
  ctx.fillStyle = 'rgba(12,16,21,0.85)';
  ctx.fillRect(x0 - 4 * dpr, y0 - 4 * dpr, b.w * dpr + 8 * dpr, b.h * dpr + 8 * dpr);
  ctx.fillStyle = '#2a3f4d';
  ctx.fillRect(x0, y0, T.w * k, T.h * k);
  ctx.fillStyle = '#141c24';
  ctx.fillRect(x0 + T.bx * k, y0 + T.by * k, room.cols * UNIT * k, room.rows * UNIT * k);
  const s = Math.max(1.5 * dpr, UNIT * k * 0.8);
  for (const p of pieces) {
    if (hidden(lens, room, p)) continue;
    ctx.fillStyle = p.holder ? colorOf(room, p.holder) : p.cell ? '#5d7f96' : '#c9d3dc';
    ctx.fillRect(x0 + p.dx * k, y0 + p.dy * k, s, s);
  }
  if (found) {
    ctx.strokeStyle = FOUND; ctx.lineWidth = 2 * dpr;
    ctx.beginPath(); ctx.arc(x0 + (found.dx + UNIT / 2) * k, y0 + (found.dy + UNIT / 2) * k, 5 * dpr, 0, 2 * Math.PI); ctx.stroke();
  }
  ctx.strokeStyle = '#f2a33a';
  ctx.lineWidth = 1.5 * dpr;
  ctx.strokeRect(b.vx * dpr, b.vy * dpr, Math.max(2, b.vw * dpr), Math.max(2, b.vh * dpr));
}

export function setUpTools() {
  $('b-tools').addEventListener('click', () => toggleTools());
  $('t-numbers').addEventListener('click', () => toggle('numbers'));
  $('t-rulers').addEventListener('click', () => toggle('rulers'));
  $('t-map').addEventListener('click', () => toggle('map'));
  for (const f of ['all', 'edges', 'loose']) $(`t-${f}`).addEventListener('click', () => filter(f));
  $('find-form').addEventListener('submit', (e) => {
    e.preventDefault();
    findPiece($('find-input').value);
    $('find-input').blur();
  });
  syncButtons();
  // The bar's real height (it wraps on a phone, the strip opens): what sits
  // under it (the solved banner, panels) goes below it, and the table's part follows.
  new ResizeObserver(() => {
    const bottom = Math.round($('bar').getBoundingClientRect().bottom);
    if (!bottom) return;
    document.documentElement.style.setProperty('--bar-bottom', `${bottom}px`);
    if (me.inGame) layoutChanged();
  }).observe($('bar'));
}

/** For the browser tests: what the tools show. */
export function toolsState() {
  return { ...lens, map: lens.map, mapBox: map && { ...map } };
}
