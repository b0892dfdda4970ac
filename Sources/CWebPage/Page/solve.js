// The solve, as the terminal tells it: the solved banner's numbers (the
// time, the moves and the pieces each player placed: `HISTORY <puzzle>`),
// kept clear of the bar however many rows it wraps to, and the room's
// solved puzzles (`HISTORY`), each with a Watch button (replayview.js).

import { $ } from './dom.js';
import { clockText } from './state.js';
import { req } from './link.js';
import { me, room } from './session.js';
import { readHistory, statsText } from './replays.js';
import { openReplay, replayOpen } from './replayview.js';
import { showError } from './notices.js';

/** The banner's numbers: for which room and puzzle they were asked, and their text. */
const banner = { key: '', text: '' };

/** Called whenever the HUD is brought up to date: a solved puzzle's banner
 *  gets its numbers once (asked again for a new room or puzzle). */
export function updateSolved() {
  const el = $('solved');
  placeBanner();
  if (el.hidden || room.solvedMs === null) return;
  const key = `${me.room}#${room.puzzle}`;
  if (banner.key === key) return;
  banner.key = key; banner.text = '';
  $('solved-stats').textContent = '';
  $('b-solved-watch').hidden = true;
  const puzzle = room.puzzle;
  req(`HISTORY ${puzzle}`, (r, records) => {
    if (banner.key !== key) return;
    const entry = readHistory(records).find((e) => e.puzzle === puzzle);
    if (!entry) return;
    banner.text = statsText(entry.moves, entry.players);
    $('solved-stats').textContent = banner.text;
    $('b-solved-watch').hidden = false;
    placeBanner();
  }, (code) => code === 'LINK' || code === 'UNKNOWN_PUZZLE'); // a room that keeps no replays: the time alone
}

/** The banner sits under the bar, whose buttons wrap to two rows on a phone. */
export function placeBanner() {
  const el = $('solved');
  if (el.hidden) return;
  el.style.top = `${Math.round($('bar').getBoundingClientRect().bottom + 10)}px`;
}

// ------------------------------------------------------------ solved puzzles
export function toggleSolves(force) {
  const el = $('solves');
  el.hidden = force === undefined ? !el.hidden : !force;
  $('b-solves').classList.toggle('on', !el.hidden);
  if (!el.hidden) { $('who').hidden = true; $('help').hidden = true; listSolves(); }
}

function listSolves() {
  const list = $('solves-list');
  req('HISTORY', (r, records) => {
    list.textContent = '';
    const entries = readHistory(records).reverse(); // the latest first
    $('solves-none').hidden = entries.length > 0;
    for (const e of entries) {
      const li = document.createElement('li');
      const head = document.createElement('div');
      head.className = 'solve-head';
      const name = document.createElement('span');
      name.className = 'solve-name';
      name.textContent = `Puzzle ${e.puzzle} · ${e.kind} ${e.rows}×${e.cols}${e.rotation ? ' ⟳' : ''}`;
      const time = document.createElement('span');
      time.className = 'solve-time';
      time.textContent = clockText(e.elapsed);
      const watch = document.createElement('button');
      watch.type = 'button';
      watch.className = 'primary';
      watch.textContent = 'Watch';
      watch.dataset.puzzle = String(e.puzzle);
      watch.addEventListener('click', () => { toggleSolves(false); openReplay(e.puzzle); });
      head.append(name, time, watch);
      const info = document.createElement('div');
      info.className = 'dim';
      info.textContent = `${statsText(e.moves, e.players)} · ${e.players.length} player${e.players.length === 1 ? '' : 's'}`;
      li.append(head, info);
      list.append(li);
    }
  }, (code, text) => { if (code !== 'LINK') showError(code, text); return true; });
}

export function setUpSolve() {
  $('b-solves').addEventListener('click', () => toggleSolves());
  $('solves-close').addEventListener('click', () => toggleSolves(false));
  $('b-solved-watch').addEventListener('click', () => openReplay(room.puzzle));
  window.addEventListener('resize', placeBanner);
  // The players and the help open where the list is: one panel at a time.
  for (const id of ['b-who', 'b-help']) $(id).addEventListener('click', () => toggleSolves(false));
  // O (the terminal's Ctrl-O) opens the list; Esc closes it. Before input.js's
  // keys (capture), and never while typing or watching a replay.
  window.addEventListener('keydown', (e) => {
    const t = e.target;
    if (!me.inGame || replayOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    if (e.key === 'o' || e.key === 'O') { toggleSolves(); e.preventDefault(); e.stopPropagation(); }
    else if (e.key === 'Escape' && !$('solves').hidden) { toggleSolves(false); e.preventDefault(); e.stopPropagation(); }
    else if (e.key === 'w' || e.key === 'W' || e.key === '?') toggleSolves(false);
  }, true);
}
