// puzzle-room in a browser: the line protocol (version 2, Protocol/PROTOCOL.md)
// over a WebSocket at /ws, one text message per line each way. This module
// wires the page's parts together and starts it:
//   wire.js      the server's lines read into objects (pure)
//   state.js     the room, built from snapshots and changed by events (pure)
//   geometry.js  the table's units, the view's math, outlines, hit tests (pure)
//   link.js      the WebSocket, reconnecting, requests matched to replies
//   session.js   HELLO, JOIN/WATCH/REJOIN, SYNC, LAYOUT; events to the room
//   pictures.js  the puzzle's picture, small then sharp
//   view.js      where the table is on the screen: fit, zoom, pan
//   draw.js      the canvas, a frame when something changed
//   hand.js      the piece in my hand: GRAB, DRAG, DROP, KEEP, ROTATE
//   input.js     pointer, touch, wheel and keys
//   hud.js       the bar, the lid, the hint, the players panel
//   chat.js      the chat panel
//   lens.js      my own view of a big table: filters, find, rulers, map (pure)
//   tools.js     the big-puzzle tools' strip, keys and drawing
//   edgescroll.js the view following a piece carried to the screen's edge
//   lobby.js     the name box, the room list, making a room, uploads
//   notices.js   error texts, toasts, the link's banner
//   replays.js   a kept solve played back on a room of its own (pure)
//   solve.js     the solved banner's numbers, the room's solved puzzles
//   replayview.js  the replay viewer over the table

import { $ } from './dom.js';
import { UNIT, toScreen, fitView } from './geometry.js';
import { progress } from './state.js';
import { connect, debug, dropLink, link, linkHooks } from './link.js';
import { me, room, store, hello, onEvent, onBye, join } from './session.js';
import { hand, countdown, keepHold, rotate } from './hand.js';
import { view, fit, zoomCenter, viewArea } from './view.js';
import { art } from './pictures.js';
import { askHint, askNext, tickClock, toggleHelp, toggleLid, toggleWho } from './hud.js';
import { setUpChat, toggleChat } from './chat.js';
import { NAME_RE, setUpLobby, showNameBox, showRooms } from './lobby.js';
import { setUpInput } from './input.js';
import { setUpTools, toolsState } from './tools.js';
import { setLinkState, showError, showStatus } from './notices.js';
import { setUpSolve } from './solve.js';
import { setUpReplayView } from './replayview.js';

linkHooks.opened = () => {
  $('toast').hidden = true; // 'the server is restarting' is over
  hello(false);
};
linkHooks.lost = () => { me.syncing = false; };
linkHooks.event = onEvent;
linkHooks.bye = onBye;
linkHooks.unanswered = showError;
linkHooks.state = setLinkState;
linkHooks.status = showStatus;

setUpInput();
setUpTools();
setUpChat();
setUpLobby();
setUpSolve();
setUpReplayView();
setInterval(keepHold, 250);
setInterval(tickClock, 500);

$('b-rooms').addEventListener('click', showRooms);
$('b-rotate').addEventListener('click', () => rotate());
$('b-lid').addEventListener('click', () => toggleLid());
$('lid-close').addEventListener('click', () => toggleLid(false));
$('b-hint').addEventListener('click', askHint);
$('b-zoomin').addEventListener('click', () => zoomCenter(1.4));
$('b-zoomout').addEventListener('click', () => zoomCenter(1 / 1.4));
$('b-fit').addEventListener('click', fit);
$('b-who').addEventListener('click', toggleWho);
$('b-chat').addEventListener('click', toggleChat);
$('b-help').addEventListener('click', toggleHelp);
$('b-next').addEventListener('click', askNext);
$('b-join').addEventListener('click', () => join(me.room, me.password));
// Buttons keep no focus, so keys go on to the table.
for (const b of document.querySelectorAll('#bar button')) b.addEventListener('pointerup', () => b.blur());

// A name from before signs in at once, into the room the address names.
const hashRoom = decodeURIComponent(location.hash.slice(1));
const savedName = store.get('puzzle-room:name');
if (savedName && NAME_RE.test(savedName)) {
  me.name = savedName;
  if (NAME_RE.test(hashRoom)) me.room = hashRoom;
  $('name').value = savedName;
  connect();
} else {
  showNameBox();
}

// For the browser tests and the curious: where things are on the screen.
window.puzzlePage = {
  debug,
  state: () => ({
    connected: link.up, joined: room.joined, inGame: me.inGame, room: me.room, id: me.id, name: me.name,
    watching: me.watching, watchers: [...room.watchers.values()], countdown: countdown(),
    kind: room.kind, rows: room.rows, cols: room.cols, puzzle: room.puzzle, seq: room.seq, solved: room.solvedMs !== null,
    placed: progress(room), edges: !!room.edges, table: room.table, hiPicture: art.sharpWidth, hiBackoff: art.backoff, hasPicture: !!art.small, holding: hand.piece,
    held: room.pieces.filter((p) => p && p.holder).map((p) => ({ piece: p.id, holder: p.holder, target: p.target })),
  }),
  piece: (id) => {
    const p = room.pieces[id];
    if (!p) return null;
    const s = toScreen(view, p.dx + UNIT / 2, p.dy + UNIT / 2);
    return { x: s.x, y: s.y, cell: p.cell, r: p.r, c: p.c, rot: p.rot, holder: p.holder, target: p.target, tx: p.x, ty: p.y, part: p.part };
  },
  // The screen point of the centre of a piece whose corner is at table point (x, y).
  point: (x, y) => toScreen(view, x + UNIT / 2, y + UNIT / 2),
  parts: () => [...room.parts].map(([id, members]) => ({ id, members })),
  cell: (r, c) => room.table && toScreen(view, room.table.bx + c * UNIT + UNIT / 2, room.table.by + r * UNIT + UNIT / 2),
  unit: () => view.scale,
  // The view and the screen the table has (a new puzzle fits it; a reconnect keeps the zoom).
  view: () => ({ scale: view.scale, ox: view.ox, oy: view.oy, fitted: view.fitted, area: viewArea(), fit: room.table && fitView(room, viewArea()) }),
  tools: toolsState,
  // The link dropping under the page (as when a phone changes networks).
  dropLink,
};
