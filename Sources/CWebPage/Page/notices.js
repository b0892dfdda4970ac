// What the page tells the player outside the table: error texts (the
// server's own, from /errors.js), a toast, the lobby's error line, the link's
// state, and the banner while the link is down or stopped.

import { $ } from './dom.js';
import { connect, link, now } from './link.js';
import { me } from './session.js';
import { sysMessage } from './chat.js';

// The server's text for each error code: /errors.js, written by the server
// from its own table, so the page keeps no copy to drift from the codes.
export const ERRORS = window.puzzleErrors;

export function readable(code, text) {
  if (code === 'LINK') return 'The link to the server dropped.';
  if (text && code !== 'BAD_ARGS' && code !== 'UNKNOWN_VERB') return text.charAt(0).toUpperCase() + text.slice(1);
  return ERRORS[code] || `${code}: ${text}`;
}

export function showError(code, text) {
  const msg = readable(code, text);
  if (me.inGame) { toast(msg); sysMessage(msg, 'err'); } else lobbyError(msg);
}

let toastTimer = 0;
export function toast(text, info) {
  const el = $('toast');
  el.textContent = text;
  el.classList.toggle('info', !!info);
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

export function lobbyError(text) {
  const el = $('lobby-error');
  el.textContent = text || '';
  if (text && !$('lobby').hidden) el.scrollIntoView({ block: 'nearest' });
}

export function setLinkState(text) { $('link-state').textContent = text; }

let statusTimer = 0;
/** The banner: null (none), 'reconnecting' (counting down to the next try) or 'stopped' (why, and Play here). */
export function showStatus(kind, text) {
  const el = $('status');
  clearInterval(statusTimer);
  if (!kind) { el.hidden = true; return; }
  el.textContent = '';
  if (kind === 'reconnecting') {
    const tick = () => {
      const s = Math.max(0, Math.ceil((link.retryAt - now()) / 1000));
      el.textContent = s > 0 ? `Connection lost — trying again in ${s} s` : 'Connection lost — reconnecting…';
    };
    tick();
    statusTimer = setInterval(tick, 250);
  } else {
    const span = document.createElement('span');
    span.textContent = text;
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = 'Play here'; b.className = 'primary';
    b.addEventListener('click', () => { showStatus(null); connect(); });
    el.append(span, b);
    if (!me.inGame) lobbyError(text);
  }
  el.hidden = false;
}
