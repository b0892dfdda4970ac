// The link to the server: the WebSocket at /ws (one text message a line each
// way), reconnecting after a drop, and requests matched to their replies by
// counting (every request gets exactly one reply, in order).

import { isReply, lineKind, linesOf, parseBye, parseError, parseRecord, parseReply } from './wire.js';

export const now = () => performance.now();

export const link = { ws: null, up: false, pending: [], sLines: [], attempt: 0, openedAt: 0,
  timer: 0, retryAt: 0, stopped: false, wanted: false };

/** What the page's other parts do when the link changes or a line comes that
 *  no request waits for; main.js fills them in. */
export const linkHooks = {
  opened() {}, // the socket is open: say HELLO
  lost() {}, // the socket closed (its requests were answered as lost)
  event(line) {}, // an EV line
  bye(code, text) {}, // a BYE line
  unanswered(code, text) {}, // an ERR no request waited for
  state(text) {}, // 'connecting…', 'connected', 'reconnecting…', 'stopped' or ''
  status(kind, text) {}, // null, 'reconnecting' or 'stopped' (with why)
};

/** For the browser tests and the curious: the last lines each way, counters. */
export const debug = { drawTimes: [], frames: 0, lines: 0, trace: [] };

export function trace(line) {
  debug.trace.push(line);
  if (debug.trace.length > 400) debug.trace.splice(0, 200);
}

function wsURL() {
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
}

export function connect() {
  clearTimeout(link.timer);
  link.wanted = true;
  link.stopped = false;
  let ws;
  try { ws = new WebSocket(wsURL()); } catch (e) { lost(); return; }
  link.ws = ws;
  linkHooks.state('connecting…');
  ws.onopen = () => {
    if (link.ws !== ws) return;
    link.up = true; link.openedAt = now(); link.pending = []; link.sLines = [];
    linkHooks.state('connected');
    linkHooks.status(null);
    linkHooks.opened();
  };
  ws.onmessage = (e) => {
    if (link.ws !== ws) return;
    for (const line of linesOf(e.data)) onLine(line);
  };
  ws.onclose = () => { if (link.ws === ws) lost(); };
  ws.onerror = () => {};
}

function lost() {
  const ws = link.ws;
  link.ws = null; link.up = false;
  if (ws) { try { ws.close(); } catch (e) { /* closed */ } }
  const pending = link.pending; link.pending = []; link.sLines = [];
  for (const h of pending) if (h) h(null, []);
  linkHooks.lost();
  if (!link.wanted || link.stopped) { linkHooks.status(null); return; }
  // A link that stayed up a while starts its back-off again.
  if (link.openedAt && now() - link.openedAt > 10000) link.attempt = 0;
  link.openedAt = 0;
  const delays = [300, 700, 1500, 3000, 5000, 8000];
  const delay = delays[Math.min(link.attempt, delays.length - 1)];
  link.attempt++;
  link.retryAt = now() + delay;
  link.timer = setTimeout(connect, delay);
  linkHooks.state('reconnecting…');
  linkHooks.status('reconnecting');
}

/** Closes the link for good (until the player asks again), saying why. */
export function stopLink(reason) {
  link.stopped = true; link.wanted = false;
  clearTimeout(link.timer);
  const ws = link.ws; link.ws = null; link.up = false;
  if (ws) { try { ws.close(1000); } catch (e) { /* closed */ } }
  link.pending = []; link.sLines = [];
  linkHooks.state(reason ? 'stopped' : '');
  if (reason) linkHooks.status('stopped', reason);
}

/** Drops the socket under the page (as when a phone changes networks). */
export function dropLink() { if (link.ws) link.ws.close(); }

/** Whether a line sent now would go out: a socket the server closed is
 *  CLOSING before its close event comes, and what is sent then is lost. */
export const canSend = () => link.up && link.ws && link.ws.readyState === WebSocket.OPEN;

/** Sends one request; `handler(line, sLines)` gets its reply (null: link lost). */
export function send(line, handler) {
  // A request that cannot go out is answered as a lost link, as after the close.
  if (!canSend()) { if (handler) handler(null, []); return false; }
  link.ws.send(line);
  link.pending.push(handler || null);
  trace('> ' + line);
  return true;
}

/** Sends lines that together get one reply (an upload's DATA lines), then waits for it. */
export function sendAll(lines, handler) {
  const ws = link.ws;
  for (const line of lines) ws.send(line);
  link.pending.push(handler);
}

/** A request whose reply comes read: `onOk(reply, records)` (`parseReply`,
 *  `parseRecord`s), `onErr(code, text)`; an ERR is shown to the player
 *  (linkHooks.unanswered) unless `onErr` returns anything but false.
 *  A lost link is the code `LINK`. */
export function req(line, onOk, onErr) {
  return send(line, (reply, s) => {
    if (reply === null) { if (onErr) onErr('LINK', 'the link dropped'); return; }
    if (reply.startsWith('OK') || reply.startsWith('PONG')) { if (onOk) onOk(parseReply(reply), s.map(parseRecord)); return; }
    const e = parseError(reply);
    if (onErr && onErr(e.code, e.text) !== false) return;
    linkHooks.unanswered(e.code, e.text);
  });
}

function onLine(line) {
  debug.lines++;
  if (!line.startsWith('S px ') && !line.startsWith('S png ') && !line.startsWith('S jpeg ')) trace('< ' + line);
  const head = lineKind(line);
  if (head === 'S') { link.sLines.push(line); return; }
  if (isReply(head)) {
    const h = link.pending.shift();
    const s = link.sLines; link.sLines = [];
    if (h) h(line, s);
    else if (head === 'ERR') { const e = parseError(line); linkHooks.unanswered(e.code, e.text); }
    return;
  }
  if (head === 'EV') { linkHooks.event(line); return; }
  if (head === 'BYE') { const b = parseBye(line); linkHooks.bye(b.code, b.text); }
}
