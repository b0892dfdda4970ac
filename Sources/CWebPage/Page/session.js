// Who I am and which room I am in: HELLO, JOIN, WATCH, coming back after a
// lost link (REJOIN from the point the page has), SYNC, the start layout a
// compact snapshot needs (LAYOUT), and events applied to the room in order.

import { createRoom, applySnapshot, applyEvent, layoutKey, roomKey, startRoom } from './state.js';
import { parseEvent, startLayout } from './wire.js';
import { link, now, req, send, debug, stopLink } from './link.js';
import { hand, endDrag, flushDrag } from './hand.js';
import { needDraw, flashCell, markHudDirty, forgetShapes } from './draw.js';
import { layoutChanged } from './view.js';
import { ensurePicture, takePicture } from './pictures.js';
import { showGame, renderWatchers, updateHud } from './hud.js';
import { chatMessage, sysMessage } from './chat.js';
import { $ } from './dom.js';
import { ERRORS, showError, readable, lobbyError, toast } from './notices.js';
import { showLobby, showNameBox, listRooms, openPassword } from './lobby.js';

/** The page's player and where it is: `room` is the room's state (state.js). */
export const me = {
  name: '', id: 0, room: null, password: null, inGame: false, watching: false,
  // SYNC asked; LAYOUT asked (events wait in heldEvents meanwhile).
  syncing: false, awaitingLayout: false, heldEvents: [],
  // A piece let go while the link was down: dropped once the snapshot shows it still mine.
  pendingResume: null,
  hintUntil: 0,
};
export const room = createRoom();

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
};
const tokenKey = (name) => `puzzle-room:token:${location.host}:${name}`;
/** The room the page's player played in last, forgotten when it leaves it. */
export function forgetRoom() { store.del(roomKey(location.host, me.name)); }
/** Set once the page went back where it was (or chose not to): only its first HELLO looks. */
let lookedBack = false;

export function hello(withoutToken) {
  const token = withoutToken ? null : store.get(tokenKey(me.name));
  req(`HELLO 2 ${me.name}` + (token ? ` ${token}` : ''), (r) => {
    me.id = r.id; me.name = r.name || me.name;
    if (r.token) store.set(tokenKey(me.name), r.token);
    store.set('puzzle-room:name', me.name);
    $('me-name').textContent = `as ${me.name}`;
    if (!lookedBack) {
      // Opened again at the plain address: back to the room it was in (the
      // server keeps its seat and a held piece a while); `#ROOM` chooses another.
      lookedBack = true;
      const start = startRoom(me.room, store.get(roomKey(location.host, me.name)), (n) => /^[A-Za-z0-9_.-]{1,24}$/.test(n) && n !== '.' && n !== '..');
      if (start) me.room = start.room;
    }
    if (me.room) rejoin();
    else { showLobby(); listRooms(); }
  }, (code, text) => {
    if (code === 'LINK') return true;
    if ((code === 'BAD_TOKEN' || code === 'BAD_ARGS') && token) {
      store.del(tokenKey(me.name));
      hello(true);
      return true;
    }
    stopLink('');
    me.room = null;
    showLobby();
    showNameBox();
    lobbyError(readable(code, text));
    return true;
  });
}

/** Back in the room after a lost link: REJOIN from the point the page has
 *  (only the missed events come, or the snapshot when the room cannot). */
function rejoin() {
  const name = me.room, pw = me.password ? ` ${me.password}` : '';
  const point = me.watching ? `WATCH ${name}` : room.joined && room.run ? `REJOIN ${name} ${room.seq} ${room.run}` : `JOIN ${name}`;
  req(point + pw, (r, records) => {
    if (r.missed !== null) {
      // The missed events came before this reply, applied in order as usual;
      // the S lines of a catch-up are who watches and the clock (events carry no time).
      const watchers = new Map();
      for (const rec of records) {
        if (rec.kind === 'clock') { room.elapsed = rec.elapsed; room.elapsedAt = now(); room.running = rec.running; }
        if (rec.kind === 'watcher') watchers.set(rec.id, rec.name);
      }
      room.watchers = watchers; renderWatchers();
      room.seq = r.seq || room.seq;
      room.run = r.run || room.run;
      showGame();
      afterSnapshot();
      return;
    }
    withLayout(records, () => joined(name, me.password, r, records));
  }, (code, text) => {
    if (code === 'LINK') return true;
    if (code === 'ALREADY_JOINED') { sync(); return true; }
    const pwd = me.password;
    leaveGame();
    showLobby(); listRooms();
    forgetRoom();
    if (code === 'ROOM_FULL') offerWatch(name, pwd);
    else if (code === 'UNKNOWN_ROOM') lobbyError(`The room ${name}, where you were, is gone.`);
    else lobbyError(`Could not go back to ${name}: ${readable(code, text)}`);
    if (code === 'BAD_PASSWORD') openPassword(name);
    return true;
  });
}

export function join(name, password) {
  lobbyError('');
  req(`JOIN ${name}` + (password ? ` ${password}` : ''), (r, records) => withLayout(records, () => joined(name, password, r, records)), (code, text) => {
    if (code === 'ALREADY_JOINED') { showGame(); return true; }
    if (code === 'ROOM_FULL') { if (me.inGame) showError(code, ERRORS.ROOM_FULL); else offerWatch(name, password); return true; }
    if (me.inGame) { showError(code, text); return true; }
    lobbyError(`${name}: ${readable(code, text)}`);
    if (code === 'BAD_PASSWORD') openPassword(name);
    return true;
  });
}

/** Follows a room without playing: the table live, chat, no grabs. */
export function watch(name, password) {
  lobbyError('');
  req(`WATCH ${name}` + (password ? ` ${password}` : ''), (r, records) => withLayout(records, () => joined(name, password, r, records)), (code, text) => {
    lobbyError(`${name}: ${readable(code, text)}`);
    if (code === 'BAD_PASSWORD') openPassword(name);
    return true;
  });
}

function offerWatch(name, password) {
  lobbyError(`${name}: ${ERRORS.ROOM_FULL} `);
  const b = document.createElement('button');
  b.type = 'button'; b.textContent = `Watch ${name}`; b.id = 'full-watch';
  b.addEventListener('click', () => watch(name, password));
  $('lobby-error').append(b);
  listRooms(); // the list showed a free seat: show it as it is now
}

function joined(name, password, reply, records) {
  const switched = me.room !== name, was = me.watching;
  me.room = name; me.password = password || null; me.watching = reply.verb === 'watching';
  if (hand.piece >= 0 && me.watching) endDrag();
  if (was && !me.watching) $('toast').hidden = true;
  takeSnapshot(records, reply);
  if (switched || was !== me.watching) sysMessage(`— ${name}: ${room.kind} ${room.rows}×${room.cols}${me.watching ? ', watching' : ''} —`);
  debug.joinedAt = now(); debug.firstDrawAt = 0; debug.sharpDrawAt = 0;
  history.replaceState(null, '', '#' + encodeURIComponent(name));
  if (!me.watching) store.set(roomKey(location.host, me.name), name);
  showGame();
  afterSnapshot();
}

export function sync() {
  if (me.syncing || !room.joined) return;
  me.syncing = true;
  req('SYNC', (r, records) => withLayout(records, () => { me.syncing = false; takeSnapshot(records, r); afterSnapshot(); }),
    (code) => { me.syncing = false; return code === 'LINK'; });
}

function takeSnapshot(records, reply) {
  const { leaseLeft } = applySnapshot(room, records, reply, { layouts, me: me.id, hand, now: now() });
  if (leaseLeft !== null) hand.leaseEnd = now() + leaseLeft;
  takePicture(`${me.room}#${room.puzzle}`);
  forgetShapes();
  layoutChanged();
}

/** After a snapshot: carry on a hold that survived a dropped link. */
function afterSnapshot() {
  const mine = room.pieces.filter((p) => p && p.holder === me.id);
  for (const p of mine) {
    if (hand.piece === p.id && (hand.down || hand.via === 'key')) continue;
    if (hand.piece === p.id && me.pendingResume === p.id) {
      // The pointer came up while the link was down: finish that drop.
      send(`DRAG ${p.id} ${Math.round(hand.x)} ${Math.round(hand.y)}`, null);
      send(`DROP ${p.id}`, null);
    } else {
      send(`RELEASE ${p.id}`, null);
    }
    if (hand.piece === p.id) endDrag();
  }
  me.pendingResume = null;
  if (hand.piece >= 0 && !mine.some((p) => p.id === hand.piece)) endDrag();
  else if (hand.piece >= 0) { hand.sentX = NaN; flushDrag(); }
  ensurePicture();
  updateHud();
  needDraw();
}

/** Start layouts (`LAYOUT`) by seed, puzzle and piece count: fetched once,
 *  kept for rejoins, rooms and puzzles while the page lives (a few). */
const layouts = new Map();
export function remember(map, key, value, most) {
  map.delete(key); map.set(key, value);
  while (map.size > most) map.delete(map.keys().next().value);
}

/** A compact snapshot names the pieces still where the puzzle started
 *  (`S pieces start`): the page, with no copy of the rules, asks the server
 *  where that is (`LAYOUT`), once per puzzle, then goes on. Events that come
 *  meanwhile wait, and follow in order. */
function withLayout(records, then) {
  const key = layoutKey(records);
  if (!key || layouts.has(key) || !records.some((r) => r.kind === 'pieces' && r.set === 'start')) { then(); return; }
  me.awaitingLayout = true; me.heldEvents = [];
  req('LAYOUT', (r, layoutRecords) => {
    remember(layouts, `${r.values.seed}/${r.values.puzzle}/${r.count}`, startLayout(layoutRecords), 4);
    me.awaitingLayout = false;
    then();
    const held = me.heldEvents; me.heldEvents = [];
    if (held.overflow) { sync(); return; }
    for (const e of held) onEvent(e);
  }, (code) => { me.awaitingLayout = false; me.heldEvents = []; if (code !== 'LINK') sync(); return true; });
}

export function onEvent(line) {
  // Waiting for LAYOUT: the event follows the snapshot it comes after.
  if (me.awaitingLayout) { if (me.heldEvents.length < 20000) me.heldEvents.push(line); else me.heldEvents.overflow = true; return; }
  if (!room.joined || me.syncing) return;
  const { outcome, effects } = applyEvent(room, parseEvent(line), me.id, hand);
  if (outcome === 'gap') { sync(); return; }
  if (outcome === 'stale') return;
  for (const e of effects) {
    switch (e.kind) {
      case 'note': sysMessage(e.text); break;
      case 'warn': toast(e.text); sysMessage(e.text, 'err'); break;
      case 'chat': chatMessage(e.from, e.text); break;
      case 'flash': flashCell(e.r, e.c, e.by); break;
      case 'endHold': endDrag(); break;
      case 'watchers': renderWatchers(); break;
      case 'next': me.syncing = false; sync(); break;
      default: break;
    }
  }
  markHudDirty();
  needDraw();
}

export function leaveGame() {
  room.joined = false; me.room = null; me.password = null; me.inGame = false; me.watching = false; room.watchers = new Map();
  room.pieces = []; endDrag();
  history.replaceState(null, '', location.pathname);
}

/** `BYE`: the server closes this link. */
export const BYES = {
  FULL: 'The server is full.',
  SLOW: 'The link was too slow to keep up.',
  IDLE: 'You were idle for a long time and were signed out.',
  SHUTDOWN: 'The server is restarting.',
  RESUMED: 'You signed in again from another tab or device; this one stopped.',
};
export function onBye(code, text) {
  const shown = BYES[code] || text;
  if (code === 'RESUMED' || code === 'IDLE' || code === 'FULL') stopLink(shown);
  else if (code === 'SHUTDOWN') toast(shown, true);
}
