// The game screen around the table: the bar (room, progress, clock, the
// buttons a room allows), the solved banner, the box lid, the hint, NEXT,
// and the players panel.

import { $, canvas } from './dom.js';
import { clockNow, clockText, colorOf, progress } from './state.js';
import { now, req } from './link.js';
import { me, room } from './session.js';
import { resizeCanvas, layoutChanged } from './view.js';
import { needDraw } from './draw.js';
import { currentPicture } from './pictures.js';
import { ERRORS, lobbyError, showError, toast } from './notices.js';
import { updateSolved } from './solve.js';

export function showGame() {
  me.inGame = true;
  $('lobby').hidden = true;
  $('game').hidden = false;
  lobbyError('');
  // A narrow screen keeps the chat closed unless it is tall enough for both.
  if (window.innerWidth < 900 && window.innerHeight < window.innerWidth * 1.6 && !$('chat').dataset.init) $('chat').hidden = true;
  $('chat').dataset.init = '1';
  $('b-chat').classList.toggle('on', !$('chat').hidden);
  $('watchnote').hidden = !me.watching; // before fit: it takes a row of the bar
  resizeCanvas();
  // A new puzzle fits; the same one (back from the rooms, a reconnect) keeps its zoom.
  layoutChanged();
  updateHud();
  // Lines that came while the table was hidden could not scroll it: show the latest.
  $('messages').scrollTop = $('messages').scrollHeight;
  canvas.focus({ preventScroll: true });
}

export function updateHud() {
  if (!room.joined) return;
  const total = room.rows * room.cols, done = progress(room);
  $('room-title').textContent = `${me.room} · ${me.watching ? 'watching · ' : ''}${room.kind} ${room.rows}×${room.cols}`;
  $('watchnote').hidden = !me.watching;
  $('progress-text').textContent = `${done}/${total}`;
  $('progress-fill').style.width = `${total ? (100 * done / total).toFixed(1) : 0}%`;
  $('clock').textContent = clockText(clockNow(room, now()));
  $('b-rotate').hidden = !room.rotation || me.watching;
  $('b-lid').hidden = !room.lid;
  $('b-hint').hidden = room.lid;
  $('b-hint').disabled = room.hintUsed || me.watching;
  const solved = room.solvedMs !== null;
  $('solved').hidden = !solved;
  if (solved) $('solved-text').textContent = `Solved in ${clockText(room.solvedMs)}! 🎉`;
  updateSolved(); // its numbers (solve.js)
  if (!$('who').hidden) refreshWhoSoon();
}

/** Every half second: the clock runs. */
export function tickClock() { if (me.inGame) $('clock').textContent = clockText(clockNow(room, now())); }

export function toggleLid(force) {
  const el = $('lid');
  el.hidden = force === undefined ? !el.hidden : !force;
  $('b-lid').classList.toggle('on', !el.hidden);
  drawLid();
}

export function drawLid() {
  const el = $('lid');
  if (el.hidden) return;
  const pic = currentPicture();
  if (!pic) return;
  const c = $('lid-canvas');
  const maxW = Math.min(window.innerWidth * 0.45, 420), maxH = window.innerHeight * 0.35;
  const k = Math.min(maxW / pic.width, maxH / pic.height);
  const w = Math.round(pic.width * k), h = Math.round(pic.height * k), d = window.devicePixelRatio || 1;
  c.width = Math.round(w * d); c.height = Math.round(h * d);
  c.style.width = `${w}px`; c.style.height = `${h}px`;
  const g = c.getContext('2d');
  g.imageSmoothingQuality = 'high';
  g.drawImage(pic, 0, 0, c.width, c.height);
}

export function askHint() {
  if (room.lid) { toggleLid(); return; }
  if (me.watching) { toast(ERRORS.WATCHING); return; }
  req('HINT', (r) => {
    const ms = r.ms || room.hintMs;
    room.hintUsed = true;
    me.hintUntil = now() + ms;
    updateHud();
    needDraw();
  }, (code, text) => { if (code === 'HINT_USED') { room.hintUsed = true; updateHud(); } showError(code, text); return true; });
}

export function askNext() {
  if (me.watching) { toast(ERRORS.WATCHING); return; }
  req('NEXT', null, (code, text) => { showError(code, text); return true; });
}

// ------------------------------------------------------------------ players
let whoTimer = 0;
export function toggleWho() {
  const el = $('who');
  el.hidden = !el.hidden;
  $('help').hidden = true;
  $('b-who').classList.toggle('on', !el.hidden);
  if (!el.hidden) refreshWho();
}

function refreshWhoSoon() {
  if (whoTimer) return;
  whoTimer = setTimeout(() => { whoTimer = 0; refreshWho(); }, 800);
}

function refreshWho() {
  req('WHO', (r, records) => {
    const list = $('who-list');
    list.textContent = '';
    const watchers = new Map();
    for (const rec of records) {
      if (rec.kind !== 'who') continue;
      if (rec.watching) { watchers.set(rec.id, rec.name); continue; }
      const li = document.createElement('li');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = colorOf(room, rec.id);
      const name = document.createElement('span');
      name.textContent = rec.name + (rec.id === me.id ? ' (you)' : '');
      const info = document.createElement('span');
      info.className = 'dim';
      info.textContent = `${rec.moves} move${rec.moves === 1 ? '' : 's'}` + (rec.holding !== '-' ? ` · holds ${rec.holding}` : '');
      li.append(sw, name, info);
      list.append(li);
    }
    room.watchers = watchers;
    renderWatchers();
  }, (code) => code === 'LINK');
}

export function renderWatchers() {
  const list = $('watch-list');
  list.textContent = '';
  for (const [id, name] of room.watchers) {
    const li = document.createElement('li');
    li.textContent = name + (id === me.id ? ' (you)' : '');
    list.append(li);
  }
  $('watch-head').hidden = !room.watchers.size;
}

export function toggleHelp() {
  $('help').hidden = !$('help').hidden;
  $('who').hidden = true;
}
