// The lobby: the name box, the room list (refreshed every few seconds),
// joining or watching a room, making one, and a photo of one's own sent as
// UPLOAD and DATA lines (PROTOCOL.md, "Uploaded pictures") to make it from.

import { $ } from './dom.js';
import { parseError, parseReply } from './wire.js';
import { canSend, connect, link, req, stopLink, trace, sendAll } from './link.js';
import { me, room, store, join, watch, leaveGame, forgetRoom } from './session.js';
import { hand, dropDrag } from './hand.js';
import { showGame } from './hud.js';
import { ERRORS, lobbyError, readable, toast } from './notices.js';

export const NAME_RE = /^[A-Za-z0-9_.-]{1,24}$/;

export function showNameBox() {
  $('name-box').hidden = false;
  $('rooms-box').hidden = true;
  $('name').value = me.name || store.get('puzzle-room:name') || '';
  $('name').focus();
}

export function showLobby() {
  me.inGame = false;
  $('lobby').hidden = false;
  $('game').hidden = true;
  if (link.up) { $('name-box').hidden = true; $('rooms-box').hidden = false; }
  $('back-row').hidden = !room.joined;
}

export function showRooms() { if (hand.piece >= 0) dropDrag(); showLobby(); listRooms(); }

// The list is asked again every few seconds while it shows, whatever the
// last answer was (an error must not end the refreshing), and at once when
// the page comes back into sight: a phone freezes a page in the background,
// and a list from before that says seats are free that are taken.
let roomsTimer = 0;
export function listRooms() {
  clearTimeout(roomsTimer);
  if (me.inGame || $('lobby').hidden || !link.up) return;
  roomsTimer = setTimeout(listRooms, 3000);
  req('ROOMS', (r, records) => renderRooms(records), (code) => code === 'LINK');
}

let openPasswordFor = null;
function renderRooms(records) {
  const ul = $('rooms');
  const focused = document.activeElement;
  if (focused && focused.tagName === 'INPUT' && focused.closest('#rooms')) return; // do not pull a password field from under the fingers
  ul.textContent = '';
  for (const rec of records) {
    if (rec.kind !== 'room') continue;
    const name = rec.name, v = rec.values;
    const li = document.createElement('li');
    if (room.joined && name === me.room) li.classList.add('current');
    const title = document.createElement('span');
    title.className = 'rname';
    title.textContent = name + (v.password === 'yes' ? ' 🔒' : '');
    const info = document.createElement('span');
    info.className = 'rinfo';
    const [c, t] = (v.progress || '0/0').split('/').map(Number);
    const players = Number(v.players) || 0, watchers = Number(v.watchers) || 0;
    const full = !!v.seats && players >= Number(v.seats) && !(room.joined && name === me.room && !me.watching);
    info.textContent = `${v.kind} ${(v.size || '').replace('x', '×')}${v.rotation === 'on' ? ' · rotation' : ''} · ` +
      `${players}${v.seats ? `/${v.seats}` : ''} player${players === 1 && !v.seats ? '' : 's'}` +
      (full ? ' · full' : '') + (watchers ? ` · ${watchers} watching` : '') + ` · ${c}/${t} placed` + (rec.listedSolved ? ' · solved' : '');
    li.classList.toggle('full', full);
    const meter = document.createElement('span');
    meter.className = 'meter';
    const fill = document.createElement('span');
    fill.style.width = `${t ? (100 * c / t).toFixed(1) : 0}%`;
    meter.append(fill);
    info.append(meter);
    const act = document.createElement('span');
    act.className = 'rjoin';
    if (room.joined && name === me.room) {
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = 'Back'; b.className = 'primary';
      b.addEventListener('click', showGame);
      act.append(b);
      if (me.watching) act.append(button('Join', () => join(name, me.password), 'room', name));
    } else if (v.password === 'yes') {
      const pw = document.createElement('input');
      pw.type = 'password'; pw.placeholder = 'password'; pw.autocomplete = 'off';
      pw.setAttribute('aria-label', `password of ${name}`);
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = 'Join'; b.className = 'primary';
      const go = (f) => { if (!pw.value) { lobbyError(`Room ${name} needs its password.`); pw.focus(); return; } f(name, pw.value); };
      b.addEventListener('click', () => go(join));
      pw.addEventListener('keydown', (e) => { if (e.key === 'Enter') go(join); });
      act.append(pw, b, button('Watch', () => go(watch), 'watch', name, ''));
      if (openPasswordFor === name) setTimeout(() => pw.focus(), 0);
    } else {
      // A full room offers watching; its Join stays (a seat may free up by the click) but says it is full.
      const j = button(full ? 'Full' : 'Join', () => join(name, null), 'room', name, full ? '' : 'primary');
      act.append(j, button('Watch', () => watch(name, null), 'watch', name, full ? 'primary' : ''));
    }
    li.append(title, act, info);
    ul.append(li);
  }
  if (!ul.children.length) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'No rooms yet: create one below.';
    ul.append(li);
  }
  openPasswordFor = null;
}

function button(text, onClick, key, value, cls) {
  const b = document.createElement('button');
  b.type = 'button'; b.textContent = text; b.className = cls ?? 'primary';
  b.dataset[key] = value;
  b.addEventListener('click', onClick);
  return b;
}

/** The room list again, with the password field of `name` focused (a wrong or missing password). */
export function openPassword(name) { openPasswordFor = name; listRooms(); }

export function setUpLobby() {
  $('name-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!NAME_RE.test(name) || name === '.' || name === '..') { lobbyError(ERRORS.BAD_NAME); return; }
    lobbyError('');
    me.name = name;
    store.set('puzzle-room:name', name);
    link.attempt = 0;
    connect();
  });
  $('change-name').addEventListener('click', () => {
    stopLink('');
    if (room.joined) leaveGame();
    me.room = null;
    showNameBox();
  });
  $('rooms-refresh').addEventListener('click', listRooms);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) listRooms(); });
  window.addEventListener('focus', listRooms);
  window.addEventListener('pageshow', listRooms);
  $('back-to-table').addEventListener('click', showGame);
  $('leave-room').addEventListener('click', () => {
    // Left on purpose: a page opened again starts at the room list.
    req('LEAVE', () => { forgetRoom(); leaveGame(); showLobby(); listRooms(); });
  });
  $('create-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (upload.busy) return;
    const name = $('c-name').value.trim(), kind = $('c-kind').value;
    const rows = Number($('c-rows').value), cols = Number($('c-cols').value);
    const pieces = $('c-pieces').value.trim() === '' ? 0 : Number($('c-pieces').value);
    const pw = $('c-password').value.trim();
    if (!NAME_RE.test(name)) { lobbyError(`Room names: ${ERRORS.BAD_NAME}`); return; }
    if (pieces && !(pieces >= 4 && pieces <= 10000)) { lobbyError('A number of pieces is 4 to 10000.'); return; }
    if (!pieces && !(rows >= 2 && rows <= 100 && cols >= 2 && cols <= 100)) { lobbyError(ERRORS.BAD_SIZE); return; }
    if (/\s/.test(pw)) { lobbyError('Passwords have no spaces.'); return; }
    lobbyError('');
    const create = (picture) => {
      let line = `CREATE ${name} ${kind} ${pieces || `${rows}x${cols}`}`;
      // A room of one's own photo keeps it for its next puzzles too.
      if (picture) line += ` picture=${picture} pictures=fixed`;
      if ($('c-rotation').checked && kind === 'jigsaw') line += ' rotation=on';
      // Unticked: place=own, the default (a piece goes only into its own cell).
      if ($('c-shape').checked && kind === 'jigsaw') line += ' place=shape';
      if (pw) line += ` password=${pw}`;
      req(line, (r) => {
        clearPhoto();
        join(name, pw || null);
        // A piece count is cut to the picture's shape: say why 48 made 54.
        if (r.asked && r.rows * r.cols !== r.asked) {
          toast(`${name} is ${r.rows}×${r.cols}: ${r.rows * r.cols} pieces for the ${r.asked} asked, the nearest count that keeps the picture's shape.`, true);
        }
      }, (code, text) => { lobbyError(readable(code, text)); return true; });
    };
    if (!upload.file) { create(null); return; }
    // The photo goes up first, named after the room it is for.
    uploadPhoto(upload.file, name, 0, create);
  });
  $('c-picture').addEventListener('change', () => choosePhoto($('c-picture').files[0] || null));
  $('c-picture-clear').addEventListener('click', clearPhoto);
  // A photo dropped anywhere on the rooms' card, not only on the input.
  const dropZone = $('rooms-box');
  dropZone.addEventListener('dragover', (e) => { e.preventDefault(); $('c-drop').classList.add('dragging'); });
  dropZone.addEventListener('dragleave', (e) => { if (!dropZone.contains(e.relatedTarget)) $('c-drop').classList.remove('dragging'); });
  dropZone.addEventListener('drop', (e) => {
    e.preventDefault();
    $('c-drop').classList.remove('dragging');
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (!file) return;
    // The input shows the dropped file too (where the browser lets a page set it).
    try { $('c-picture').files = e.dataTransfer.files; } catch (err) { /* read-only here */ }
    choosePhoto(file);
  });
  $('c-kind').addEventListener('change', () => { $('c-rotation').disabled = $('c-kind').value !== 'jigsaw'; });
}

// ------------------------------------------------------ a photo of one's own
// Picked with the file input (phones offer their photos), or dropped on the
// form; sent as UPLOAD then DATA lines of base64 over the WebSocket, then the
// room is made from it.
const upload = { file: null, busy: false, timer: 0 };

function choosePhoto(file) {
  if (!file) { clearPhoto(); return; }
  if (!/^image\/(png|jpeg)$/.test(file.type) && !/\.(png|jpe?g)$/i.test(file.name)) {
    lobbyError('A photo is a PNG or JPEG file.');
    return;
  }
  lobbyError('');
  upload.file = file;
  $('c-picture-note').textContent = `${file.name} (${sizeText(file.size)}): the room's first picture.`;
  $('c-picture-clear').hidden = false;
  $('create-box').open = true;
  if (!$('c-name').value.trim()) $('c-name').value = pictureName(file.name);
}

function clearPhoto() {
  upload.file = null;
  $('c-picture').value = '';
  $('c-picture-note').textContent = 'A photo of yours (PNG or JPEG; pick, or drop it here), or none for the server\'s pictures.';
  $('c-picture-clear').hidden = true;
}

function sizeText(n) {
  return n < 1e3 ? `${n} bytes` : n < 1e6 ? `${Math.floor(n / 1e3)} KB` : `${(n / 1e6).toFixed(1)} MB`;
}

/** A file's base name as a picture or room name (the name rule), as the terminal client makes it. */
function pictureName(file) {
  const dot = file.lastIndexOf('.');
  const base = (dot > 0 ? file.slice(0, dot) : file).replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 24);
  return NAME_RE.test(base) && base !== '.' && base !== '..' ? base : 'photo';
}

function showProgress(fraction, text) {
  $('c-progress').hidden = fraction === null;
  if (fraction === null) return;
  $('c-bar').value = fraction;
  $('c-progress-text').textContent = text;
}

function uploadDone() {
  upload.busy = false;
  clearInterval(upload.timer);
  $('create-form').querySelector('button[type=submit]').disabled = false;
}

/** Uploads `file` as picture `name` (`name-2`, `-3` when taken), then calls `then(name)`. */
function uploadPhoto(file, roomName, attempt, then) {
  const suffix = attempt ? `-${attempt + 1}` : '';
  const name = roomName.slice(0, 24 - suffix.length) + suffix;
  upload.busy = true;
  $('create-form').querySelector('button[type=submit]').disabled = true;
  showProgress(0, `Reading ${file.name}…`);
  const failed = (code, text) => {
    uploadDone();
    if (code === 'PICTURE_EXISTS' && attempt < 4) { uploadPhoto(file, roomName, attempt + 1, then); return true; }
    showProgress(null);
    lobbyError(`The photo: ${readable(code, text)}`);
    return true;
  };
  file.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    req(`UPLOAD ${name} ${bytes.length}`, (ready) => {
      if (!canSend()) { failed('LINK', ''); return; }
      const per = Math.max(1, Math.floor((ready.lineChars || 1016) / 4)) * 3;
      const ws = link.ws;
      const lines = [];
      let queued = 0;
      for (let i = 0; i < bytes.length; i += per) {
        const line = 'DATA ' + btoa(String.fromCharCode.apply(null, bytes.subarray(i, i + per)));
        queued += line.length;
        lines.push(line);
      }
      // Every DATA line at once, nothing between them: together they get one reply.
      sendAll(lines, (reply) => {
        if (reply === null) { failed('LINK', ''); return; }
        const r = parseReply(reply);
        if (!r.ok || r.verb !== 'uploaded' || Number.isNaN(r.width)) {
          const e = parseError(reply);
          failed(e.code, e.text);
          return;
        }
        uploadDone();
        showProgress(1, `Uploaded (${r.width}×${r.height}): making the room…`);
        setTimeout(() => showProgress(null), 1500);
        then(r.picture);
      });
      trace(`> DATA × ${lines.length} (${bytes.length} bytes)`);
      const started = ws.bufferedAmount;
      const tick = () => {
        const left = ws.bufferedAmount;
        if (left > 0) showProgress(1 - left / Math.max(started, queued, 1), `Sending ${sizeText(bytes.length)}… ${Math.round(100 * (1 - left / Math.max(started, queued, 1)))}%`);
        else showProgress(1, 'Sent: the server checks the photo…');
      };
      tick();
      upload.timer = setInterval(tick, 100);
    }, failed);
  }, () => failed('READ', 'the file could not be read'));
}
