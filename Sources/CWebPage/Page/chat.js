// The room's chat: players' lines in their colours, the page's own notes
// (who came, solves, errors), the unread count while the panel is closed,
// and the line being typed, with a few emoji.

import { $ } from './dom.js';
import { colorOf } from './state.js';
import { req } from './link.js';
import { me, room } from './session.js';
import { layoutChanged } from './view.js';
import { showError, toast } from './notices.js';
import { chatLine } from './lens.js';

// A line is `SAY <text>` within the server's request line limit (PROTOCOL.md:
// max_line_length, 1024 bytes by default): the text may have 1020 bytes.
export const CHAT_BYTES = 1024 - 'SAY '.length;

/** Says, under the box, how much of the limit the line being typed takes (near it or over). */
function chatNote() {
  const c = chatLine($('chat-input').value, CHAT_BYTES), note = $('chat-note');
  note.hidden = c.bytes < CHAT_BYTES - 100;
  note.classList.toggle('error', c.over > 0);
  note.textContent = c.over ? `Too long by ${c.over} bytes: a line holds ${CHAT_BYTES}.` : `${CHAT_BYTES - c.bytes} bytes left.`;
  return c;
}

const EMOJI = ['😀', '😂', '👍', '🎉', '🧩', '🤔', '😅', '🙌', '❤️', '🔥', '👀', '🙏'];

let unread = 0;
function addMessage(li) {
  const list = $('messages');
  // Follow the newest line unless the player scrolled up to read.
  const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.append(li);
  while (list.children.length > 300) list.firstChild.remove();
  if (stick) list.scrollTop = list.scrollHeight;
}

/** A line someone said: `pl` a player ({ id, name }) or null. */
export function chatMessage(pl, text) {
  const li = document.createElement('li');
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = (pl ? pl.name : '?') + ': ';
  if (pl) who.style.color = colorOf(room, pl.id);
  li.append(who, document.createTextNode(text));
  addMessage(li);
  if ($('chat').hidden && (!pl || pl.id !== me.id)) { unread++; $('unread').textContent = String(unread); $('unread').hidden = false; }
}

/** The page's own line: `cls` 'sys' (default) or 'err'. */
export function sysMessage(text, cls) {
  const li = document.createElement('li');
  li.className = cls || 'sys';
  li.textContent = text;
  addMessage(li);
}

export function openChat(focus) {
  const el = $('chat');
  if (el.hidden) { el.hidden = false; unread = 0; $('unread').hidden = true; layoutChanged(); }
  $('messages').scrollTop = $('messages').scrollHeight;
  $('b-chat').classList.add('on');
  if (focus) $('chat-input').focus();
}

export function toggleChat() {
  const el = $('chat');
  if (el.hidden) openChat(false);
  else { el.hidden = true; $('b-chat').classList.remove('on'); layoutChanged(); }
}

export function setUpChat() {
  $('chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('chat-input');
    const c = chatNote();
    if (!c.line) return;
    // Nothing is cut: an over-long line stays in the box, and says so.
    if (c.over) { toast(`Not sent: the line is ${c.over} bytes too long (${CHAT_BYTES} at most).`); return; }
    req(`SAY ${c.line}`, () => { input.value = ''; chatNote(); }, (code, t) => { if (code === 'LINK') { toast('Not sent: the link is down.'); return true; } showError(code, t); return true; });
  });
  $('chat-input').addEventListener('input', chatNote);
  for (const em of EMOJI) {
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = em; b.title = em;
    b.addEventListener('click', () => {
      const input = $('chat-input');
      const at = input.selectionStart ?? input.value.length;
      input.value = input.value.slice(0, at) + em + input.value.slice(input.selectionEnd ?? at);
      input.focus();
      input.selectionStart = input.selectionEnd = at + em.length;
    });
    $('emoji').append(b);
  }
  $('emoji-toggle').addEventListener('click', () => {
    const el = $('emoji');
    el.hidden = !el.hidden;
    $('emoji-toggle').setAttribute('aria-expanded', String(!el.hidden));
    $('emoji-toggle').classList.toggle('on', !el.hidden);
  });
}
