// puzzle-room in a browser: the line protocol (version 2, Protocol/PROTOCOL.md)
// over a WebSocket at /ws, one text message per line each way. The page keeps
// no copy of the game's rules: where pieces lie, who holds what, the drop
// target, the table's size and every piece's edges all come from the server.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const PALETTE = ['#e6194b', '#3cb44b', '#4f7dff', '#f58231', '#b45cff', '#42d4f4',
    '#f032e6', '#bfef45', '#fabed4', '#2fb5a6', '#dcbeff', '#c48a3f'];
  const NAME_RE = /^[A-Za-z0-9_.-]{1,24}$/;
  const EMOJI = ['😀', '😂', '👍', '🎉', '🧩', '🤔', '😅', '🙌', '❤️', '🔥', '👀', '🙏'];
  const UNIT = 4; // table units per cell
  const PAD = 0.3; // a sprite's margin around its cell, for tabs (cells)
  // The server's text for each error code: /errors.js, written by the server
  // from its own table, so the page keeps no copy to drift from the codes.
  const ERRORS = window.puzzleErrors;
  const BYES = {
    FULL: 'The server is full.',
    SLOW: 'The link was too slow to keep up.',
    IDLE: 'You were idle for a long time and were signed out.',
    SHUTDOWN: 'The server is restarting.',
    RESUMED: 'You signed in again from another tab or device; this one stopped.',
  };
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
    del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  };
  const tokenKey = (name) => `puzzle-room:token:${location.host}:${name}`;
  const now = () => performance.now();

  // ---------------------------------------------------------------- state
  const S = {
    name: '', id: 0, room: null, password: null, joined: false, inGame: false,
    kind: 'jigsaw', rows: 0, cols: 0, rotation: false, puzzle: 0, seq: 0, lease: 30000,
    hintMs: 2000, lid: false, elapsed: 0, elapsedAt: 0, running: false, solvedMs: null,
    table: null, edges: null, pieces: [], players: new Map(), syncing: false,
    picture: null, pictureHash: '', pictureKey: '', awaitingLayout: false, heldEvents: [], hiPicture: null, hiWidth: 0, hiRetryAt: 0, hiBackoff: 0, hiLoading: 0,
    hintUntil: 0, hintUsed: false, zTop: 0, pendingResume: null, watching: false, watchers: new Map(),
  };
  const link = { ws: null, up: false, pending: [], sLines: [], attempt: 0, openedAt: 0,
    timer: 0, retryAt: 0, stopped: false, wanted: false };
  const drag = { piece: -1, gen: 0, pointerId: null, offX: 0, offY: 0, x: 0, y: 0, sentX: NaN,
    sentY: NaN, lastSent: 0, down: false, via: '', lastKey: 0, twist: null, leaseEnd: 0 };
  const view = { scale: 8, ox: 0, oy: 0, fitted: true };
  const debug = { drawTimes: [], frames: 0, lines: 0, trace: [] };

  // ------------------------------------------------------------------ link
  function wsURL() {
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
  }
  function connect() {
    clearTimeout(link.timer);
    link.wanted = true;
    link.stopped = false;
    let ws;
    try { ws = new WebSocket(wsURL()); } catch (e) { lost(); return; }
    link.ws = ws;
    setLinkState('connecting…');
    ws.onopen = () => {
      if (link.ws !== ws) return;
      link.up = true; link.openedAt = now(); link.pending = []; link.sLines = [];
      setLinkState('connected');
      showStatus(null);
      $('toast').hidden = true; // 'the server is restarting' is over
      hello(false);
    };
    ws.onmessage = (e) => {
      if (link.ws !== ws) return;
      const text = String(e.data);
      for (const line of text.split('\n')) if (line.length) onLine(line.replace(/\r$/, ''));
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
    S.syncing = false;
    if (!link.wanted || link.stopped) { showStatus(null); return; }
    if (link.openedAt && now() - link.openedAt > 10000) link.attempt = 0;
    link.openedAt = 0;
    const delays = [300, 700, 1500, 3000, 5000, 8000];
    const delay = delays[Math.min(link.attempt, delays.length - 1)];
    link.attempt++;
    link.retryAt = now() + delay;
    link.timer = setTimeout(connect, delay);
    setLinkState('reconnecting…');
    showStatus('reconnecting');
  }
  function stopLink(reason) {
    link.stopped = true; link.wanted = false;
    clearTimeout(link.timer);
    const ws = link.ws; link.ws = null; link.up = false;
    if (ws) { try { ws.close(1000); } catch (e) { /* closed */ } }
    link.pending = []; link.sLines = [];
    setLinkState(reason ? 'stopped' : '');
    if (reason) showStatus('stopped', reason);
  }
  /** Sends one request; `handler(line, sLines)` gets its reply (null: link lost). */
  function send(line, handler) {
    // A socket the server closed is CLOSING before its close event comes:
    // a request sent then is lost (and the browser logs an error), so it is
    // answered as a lost link, as after the close.
    if (!link.up || !link.ws || link.ws.readyState !== WebSocket.OPEN) { if (handler) handler(null, []); return false; }
    link.ws.send(line);
    link.pending.push(handler || null);
    trace('> ' + line);
    return true;
  }
  /** A request whose ERR is shown to the player unless `onErr` takes it. */
  function req(line, onOk, onErr) {
    return send(line, (reply, s) => {
      if (reply === null) { if (onErr) onErr('LINK', 'the link dropped', reply); return; }
      if (reply.startsWith('OK') || reply.startsWith('PONG')) { if (onOk) onOk(reply, s); return; }
      const m = /^ERR (\S+) ?(.*)$/.exec(reply) || [null, 'ERR', reply];
      if (onErr && onErr(m[1], m[2], reply) !== false) return;
      showError(m[1], m[2]);
    });
  }
  function quiet() { return true; }
  function trace(line) {
    debug.trace.push(line);
    if (debug.trace.length > 400) debug.trace.splice(0, 200);
  }
  function onLine(line) {
    debug.lines++;
    if (!line.startsWith('S px ') && !line.startsWith('S png ') && !line.startsWith('S jpeg ')) trace('< ' + line);
    const sp = line.indexOf(' ');
    const head = sp < 0 ? line : line.slice(0, sp);
    if (head === 'S') { link.sLines.push(line); return; }
    if (head === 'OK' || head === 'ERR' || head === 'PONG') {
      const h = link.pending.shift();
      const s = link.sLines; link.sLines = [];
      if (h) h(line, s);
      else if (head === 'ERR') showError(line.split(' ')[1], line.split(' ').slice(2).join(' '));
      return;
    }
    if (head === 'EV') { onEvent(line); return; }
    if (head === 'BYE') {
      const code = line.split(' ')[1] || '';
      const text = BYES[code] || line.slice(4);
      if (code === 'RESUMED' || code === 'IDLE' || code === 'FULL') stopLink(text);
      else if (code === 'SHUTDOWN') toast(text, true);
    }
  }
  function kv(line) {
    const out = {};
    for (const w of line.split(' ')) {
      const i = w.indexOf('=');
      if (i > 0) out[w.slice(0, i)] = w.slice(i + 1);
    }
    return out;
  }

  // ------------------------------------------------------------- session
  function hello(withoutToken) {
    const token = withoutToken ? null : store.get(tokenKey(S.name));
    req(`HELLO 2 ${S.name}` + (token ? ` ${token}` : ''), (line) => {
      const v = kv(line);
      S.id = Number(v.id); S.name = v.name || S.name;
      if (v.token) store.set(tokenKey(S.name), v.token);
      store.set('puzzle-room:name', S.name);
      $('me-name').textContent = `as ${S.name}`;
      if (S.room) rejoin();
      else { showLobby(); listRooms(); }
    }, (code, text) => {
      if (code === 'LINK') return true;
      if ((code === 'BAD_TOKEN' || code === 'BAD_ARGS') && token) {
        store.del(tokenKey(S.name));
        hello(true);
        return true;
      }
      stopLink('');
      S.room = null;
      showLobby();
      showNameBox();
      lobbyError(readable(code, text));
      return true;
    });
  }
  /** Back in the room after a lost link: REJOIN from the point the page has
   *  (only the missed events come, or the snapshot when the room cannot). */
  function rejoin() {
    const room = S.room, pw = S.password ? ` ${S.password}` : '';
    const point = S.watching ? `WATCH ${room}` : S.joined && S.run ? `REJOIN ${room} ${S.seq} ${S.run}` : `JOIN ${room}`;
    req(point + pw, (line, s) => {
      const v = kv(line);
      if (v.missed !== undefined) {
        // The missed events came before this reply, applied in order as usual;
        // the S lines of a catch-up are who watches and the clock (events carry no time).
        const watchers = new Map();
        for (const l of s) {
          const w = l.split(' ');
          if (w[1] === 'clock' && w.length === 4) {
            S.elapsed = Number(w[2]) || 0; S.elapsedAt = now(); S.running = w[3] === 'running';
          }
          if (w[1] === 'watcher') watchers.set(Number(w[2]), w.slice(3).join(' '));
        }
        S.watchers = watchers; renderWatchers();
        S.seq = Number(v.seq) || S.seq;
        S.run = v.run || S.run;
        showGame();
        afterSnapshot();
        return;
      }
      withLayout(s, () => joined(room, S.password, line, s));
    }, (code, text) => {
      if (code === 'LINK') return true;
      if (code === 'ALREADY_JOINED') { sync(); return true; }
      const pwd = S.password;
      leaveGame();
      showLobby(); listRooms();
      if (code === 'ROOM_FULL') offerWatch(room, pwd);
      else lobbyError(`Could not go back to ${room}: ${readable(code, text)}`);
      return true;
    });
  }
  function join(room, password) {
    lobbyError('');
    req(`JOIN ${room}` + (password ? ` ${password}` : ''), (line, s) => withLayout(s, () => joined(room, password, line, s)), (code, text) => {
      if (code === 'ALREADY_JOINED') { showGame(); return true; }
      if (code === 'ROOM_FULL') { if (S.inGame) showError(code, ERRORS.ROOM_FULL); else offerWatch(room, password); return true; }
      if (S.inGame) { showError(code, text); return true; }
      lobbyError(`${room}: ${readable(code, text)}`);
      if (code === 'BAD_PASSWORD') openPassword(room);
      return true;
    });
  }
  /** Follows a room without playing: the table live, chat, no grabs. */
  function watch(room, password) {
    lobbyError('');
    req(`WATCH ${room}` + (password ? ` ${password}` : ''), (line, s) => withLayout(s, () => joined(room, password, line, s)), (code, text) => {
      lobbyError(`${room}: ${readable(code, text)}`);
      if (code === 'BAD_PASSWORD') openPassword(room);
      return true;
    });
  }
  function offerWatch(room, password) {
    lobbyError(`${room}: ${ERRORS.ROOM_FULL} `);
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = `Watch ${room}`; b.id = 'full-watch';
    b.addEventListener('click', () => watch(room, password));
    $('lobby-error').append(b);
  }
  function joined(room, password, line, s) {
    const switched = S.room !== room, was = S.watching;
    S.room = room; S.password = password || null; S.watching = line.startsWith('OK watching');
    if (drag.piece >= 0 && S.watching) endDrag();
    if (was && !S.watching) $('toast').hidden = true;
    applySnapshot(s, line);
    if (switched || was !== S.watching) sysMessage(`— ${room}: ${S.kind} ${S.rows}×${S.cols}${S.watching ? ', watching' : ''} —`);
    debug.joinedAt = now(); debug.firstDrawAt = 0; debug.sharpDrawAt = 0;
    history.replaceState(null, '', '#' + encodeURIComponent(room));
    showGame();
    afterSnapshot();
  }
  function sync() {
    if (S.syncing || !S.joined) return;
    S.syncing = true;
    req('SYNC', (line, s) => withLayout(s, () => { S.syncing = false; applySnapshot(s, line); afterSnapshot(); }),
      (code) => { S.syncing = false; return code === 'LINK'; });
  }
  /** After a snapshot: carry on a hold that survived a dropped link. */
  function afterSnapshot() {
    const mine = S.pieces.filter((p) => p.holder === S.id);
    for (const p of mine) {
      if (drag.piece === p.id && (drag.down || drag.via === 'key')) continue;
      if (drag.piece === p.id && S.pendingResume === p.id) {
        // The pointer came up while the link was down: finish that drop.
        send(`DRAG ${p.id} ${Math.round(drag.x)} ${Math.round(drag.y)}`, null);
        send(`DROP ${p.id}`, null);
      } else {
        send(`RELEASE ${p.id}`, null);
      }
      if (drag.piece === p.id) endDrag();
    }
    S.pendingResume = null;
    if (drag.piece >= 0 && !mine.some((p) => p.id === drag.piece)) endDrag();
    else if (drag.piece >= 0) { drag.sentX = NaN; flushDrag(); }
    ensurePicture();
    updateHud();
    needDraw();
  }

  // ------------------------------------------------------------ snapshot
  /** Start layouts (`LAYOUT`) by seed, puzzle and piece count, and pictures
   *  (`PICTURE`) by content hash: fetched once, kept for rejoins, rooms and
   *  puzzles while the page lives (a few of each). */
  const layouts = new Map(), pictures = new Map(), pictureWanted = new Set();
  function remember(map, key, value, most) {
    map.delete(key); map.set(key, value);
    while (map.size > most) map.delete(map.keys().next().value);
  }
  function layoutKey(lines) {
    const room = lines.find((l) => l.startsWith('S room '));
    if (!room) return null;
    const v = kv(room), size = (v.size || '0x0').split('x');
    return `${v.seed}/${v.puzzle}/${Number(size[0]) * Number(size[1])}`;
  }
  /** A compact snapshot names the pieces still where the puzzle started
   *  (`S pieces start`): the page, with no copy of the rules, asks the server
   *  where that is (`LAYOUT`), once per puzzle, then goes on. Events that come
   *  meanwhile wait, and follow in order. */
  function withLayout(lines, then) {
    const key = layoutKey(lines);
    if (!key || layouts.has(key) || !lines.some((l) => l.startsWith('S pieces start '))) { then(); return; }
    S.awaitingLayout = true; S.heldEvents = [];
    req('LAYOUT', (line, s) => {
      const start = [];
      // Compact: `S start table|cell <base64>`, three bytes a piece (a
      // slot's x/5, y/5 and the rotation; or a cell's row, column, rotation).
      let n = 0;
      for (const l of s) {
        const w = l.split(' ');
        if (w[1] !== 'start') continue;
        const bin = atob(w[3] || '');
        for (let i = 0; i + 2 < bin.length; i += 3, n++) {
          const a = bin.charCodeAt(i), b = bin.charCodeAt(i + 1), rot = bin.charCodeAt(i + 2);
          start[n] = w[2] === 'cell' ? { cell: true, r: a, c: b, rot } : { cell: false, x: a * 5, y: b * 5, rot };
        }
      }
      for (const l of s) {
        const w = l.split(' ');
        if (w[1] !== 'piece') continue;
        start[Number(w[2])] = w[3] === 'cell' ? { cell: true, r: Number(w[4]), c: Number(w[5]), rot: Number(w[6]) || 0 }
          : { cell: false, x: Number(w[4]), y: Number(w[5]), rot: Number(w[6]) || 0 };
      }
      const v = kv(line);
      remember(layouts, `${v.seed}/${v.puzzle}/${line.split(' ')[2]}`, start, 4);
      S.awaitingLayout = false;
      then();
      const held = S.heldEvents; S.heldEvents = [];
      if (held.overflow) { sync(); return; }
      for (const e of held) onEvent(e);
    }, (code) => { S.awaitingLayout = false; S.heldEvents = []; if (code !== 'LINK') sync(); return true; });
  }
  /** `S jpeg` lines (a JPEG in base64) to something to draw. */
  function pictureFromJpeg(lines) {
    const text = lines.filter((l) => l.startsWith('S jpeg ')).map((l) => l.slice(7)).join('');
    const bin = atob(text), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
  }
  /** The picture a compact snapshot names by its hash: kept, or asked for
   *  (drawn from /picture meanwhile, once that comes). */
  function wantPicture(hash) {
    if (pictures.has(hash)) { S.picture = pictures.get(hash); return; }
    if (pictureWanted.has(hash)) return;
    pictureWanted.add(hash);
    // A JPEG: a fifth of a PNG's bytes; /picture's sharper one replaces it.
    req('PICTURE jpeg', (line, s) => {
      const got = line.split(' ')[4] || '';
      pictureFromJpeg(s).then((bmp) => {
        pictureWanted.delete(hash);
        remember(pictures, got, bmp, 8);
        if (S.pictureHash === got) { S.picture = bmp; sprites.clear(); spritePixels = 0; needDraw(); drawLid(); }
      }).catch(() => pictureWanted.delete(hash));
    }, () => { pictureWanted.delete(hash); return true; });
  }
  function applySnapshot(lines, okLine) {
    const pieces = [];
    const players = new Map(), watchers = new Map();
    let table = null, edges = null, picW = 0, picH = 0, picHash = '', starts = null;
    const rows = [];
    const ok = kv(okLine);
    for (const line of lines) {
      const w = line.split(' ');
      switch (w[1]) {
        case 'room': {
          const v = kv(line);
          const size = (v.size || '0x0').split('x');
          S.kind = v.kind; S.rows = Number(size[0]); S.cols = Number(size[1]);
          S.rotation = v.rotation === 'on';
          S.puzzle = Number(v.puzzle); S.lease = Number(v.lease) || 30000; S.hintMs = Number(v.hint) || 0;
          S.elapsed = Number(v.elapsed) || 0; S.elapsedAt = now();
          S.solvedMs = v.solved && v.solved !== '-' ? Number(v.solved) : null;
          S.running = v.clock ? v.clock === 'running' : true;
          S.lid = v.lid ? v.lid === 'on' : S.kind === 'jigsaw';
          S.roomName = w[2];
          break;
        }
        case 'player': {
          const id = Number(w[2]);
          players.set(id, { id, moves: Number(w[3]), hintUsed: w[4] === '1', name: w.slice(6).join(' '), slot: -1, present: true });
          break;
        }
        case 'watcher': watchers.set(Number(w[2]), w.slice(3).join(' ')); break;
        case 'color': { const p = players.get(Number(w[2])); if (p) p.slot = Number(w[3]); break; }
        case 'absent': {
          const id = Number(w[2]);
          players.set(id, { id, moves: Number(w[3]), hintUsed: w[5] === '1', name: w.slice(6).join(' '), slot: -1, present: false });
          break;
        }
        case 'piece': {
          const id = Number(w[2]);
          const p = newPiece(id);
          if (w[3] === 'cell') { p.cell = true; p.r = Number(w[4]); p.c = Number(w[5]); }
          else { p.cell = false; p.x = Number(w[4]); p.y = Number(w[5]); }
          p.rot = Number(w[6]) || 0;
          pieces[id] = p;
          break;
        }
        case 'hold': {
          const p = pieces[Number(w[2])];
          if (p) {
            p.holder = Number(w[3]); p.hx = Number(w[4]); p.hy = Number(w[5]);
            p.hrot = Number(w[6]) || 0; p.target = w[7] || '-';
            if (p.holder === S.id) drag.leaseEnd = now() + (Number(w[8]) || 0);
          }
          break;
        }
        case 'table': table = { w: Number(w[2]), h: Number(w[3]), bx: Number(w[4]), by: Number(w[5]) }; break;
        case 'edges': edges = { right: w[2] || '', bottom: w[3] || '' }; break;
        case 'picture': picW = Number(w[2]); picH = Number(w[3]); picHash = w[4] || ''; break;
        case 'pieces': {
          // The compact form's ranges: home (its own cell, unturned), or where
          // the puzzle's start layout (LAYOUT, kept by withLayout) put it.
          const home = w[2] === 'home';
          if (!home && !starts) starts = layouts.get(layoutKey(lines)) || [];
          const put = (id) => {
            const p = newPiece(id);
            if (home) { p.cell = true; p.r = Math.floor(id / S.cols); p.c = id % S.cols; }
            else if (starts[id]) Object.assign(p, starts[id]);
            pieces[id] = p;
          };
          if (w[3] === 'bits') {
            // A bitmap (scattered sets): bit i, high bit first, is piece i.
            const bin = atob(w[4] || '');
            for (let id = 0; id < S.rows * S.cols && (id >> 3) < bin.length; id++) {
              if (bin.charCodeAt(id >> 3) & (0x80 >> (id & 7))) put(id);
            }
            break;
          }
          for (const part of (w[3] || '').split(',')) {
            const ends = part.split('-'), a = Number(ends[0]), b = ends.length > 1 ? Number(ends[1]) : a;
            for (let id = a; id <= b && id < S.rows * S.cols; id++) put(id);
          }
          break;
        }
        case 'px': rows.push(w[2] || ''); break;
        default: break; // unknown kinds are for later versions
      }
    }
    if (!table) {
      // Before `S table`: a swap board fills its table; a jigsaw's is guessed
      // from where its pieces lie (the board's corner unknown: at the origin).
      let w = S.cols * UNIT, h = S.rows * UNIT;
      for (const p of pieces) if (p && !p.cell) { w = Math.max(w, p.x + UNIT); h = Math.max(h, p.y + UNIT); }
      table = { w, h, bx: 0, by: 0 };
    }
    const oldKey = S.pictureKey;
    S.table = table; S.edges = edges;
    S.pieces = pieces; S.players = players; S.watchers = watchers;
    S.seq = Number(ok.seq) || 0;
    S.run = ok.run || '';
    S.joined = true;
    S.zTop = 0;
    sortDirty = true;
    for (const p of pieces) {
      if (!p) continue;
      p.z = ++S.zTop;
      const g = goal(p);
      p.dx = g.x; p.dy = g.y; p.drot = g.rot; p.rotGoal = g.rot;
    }
    const me = players.get(S.id);
    S.hintUsed = me ? me.hintUsed : false;
    S.pictureHash = picHash;
    if (picW && rows.length) S.picture = pictureFromRows(picW, picH, rows);
    else if (picHash) { S.picture = null; wantPicture(picHash); }
    S.pictureKey = `${S.room}#${S.puzzle}`;
    if (S.pictureKey !== oldKey) { S.hiPicture = null; S.hiWidth = 0; S.hiRetryAt = 0; S.hiBackoff = 0; }
    paths.clear(); sprites.clear(); spritePixels = 0;
    layoutChanged();
  }
  function newPiece(id) {
    return { id, cell: false, r: 0, c: 0, x: 0, y: 0, rot: 0, holder: 0, hx: 0, hy: 0, hrot: 0,
      target: '-', z: 0, dx: 0, dy: 0, drot: 0, rotGoal: 0 };
  }
  function pictureFromRows(w, h, rows) {
    const c = document.createElement('canvas');
    c.width = w; c.height = h;
    const g = c.getContext('2d');
    const img = g.createImageData(w, h);
    for (let y = 0; y < h && y < rows.length; y++) {
      const row = rows[y];
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4, hex = row.substr(x * 6, 6);
        const v = parseInt(hex, 16) || 0;
        img.data[o] = v >> 16; img.data[o + 1] = (v >> 8) & 255; img.data[o + 2] = v & 255; img.data[o + 3] = 255;
      }
    }
    g.putImageData(img, 0, 0);
    return c;
  }
  /** The picture at the width this screen needs, from /picture (the `S px` rows until it comes). */
  function ensurePicture() {
    if (!S.joined || S.hiLoading || now() < S.hiRetryAt) return;
    const boardPx = S.cols * UNIT * view.scale * (window.devicePixelRatio || 1);
    // The server draws at most 2048 pixels a side.
    const most = Math.min(2048, Math.floor(2048 * S.cols / Math.max(1, S.rows)));
    const steps = [256, 512, 768, 1024, 1536, 2048].filter((w) => w < most).concat([most]);
    let want = most;
    for (const s of steps) if (s >= boardPx * 1.05) { want = s; break; }
    if (S.hiPicture && S.hiWidth >= want) return;
    const key = S.pictureKey;
    S.hiLoading = want;
    fetch(`/picture/${encodeURIComponent(S.room)}?w=${want}`, { cache: 'no-cache' })
      .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.blob(); })
      .then((b) => createImageBitmap(b))
      .then((bmp) => {
        S.hiLoading = 0; S.hiBackoff = 0;
        if (key !== S.pictureKey) { ensurePicture(); return; }
        S.hiPicture = bmp; S.hiWidth = want;
        sprites.clear(); spritePixels = 0; needDraw(); drawLid();
        ensurePicture(); // the view may want a bigger one by now
      })
      .catch(() => {
        // A flaky link: try again later (2 s, doubling up to a minute), not
        // never; meanwhile the snapshot's small picture is drawn.
        S.hiLoading = 0;
        if (key !== S.pictureKey) return;
        S.hiBackoff = Math.min(60000, (S.hiBackoff || 1000) * 2);
        S.hiRetryAt = now() + S.hiBackoff;
        setTimeout(ensurePicture, S.hiBackoff + 50);
      });
  }
  function currentPicture() { return S.hiPicture || S.picture; }

  // -------------------------------------------------------------- events
  function onEvent(line) {
    // Waiting for LAYOUT: the event follows the snapshot it comes after.
    if (S.awaitingLayout) { if (S.heldEvents.length < 20000) S.heldEvents.push(line); else S.heldEvents.overflow = true; return; }
    if (!S.joined || S.syncing) return;
    const w = line.split(' ');
    const seq = Number(w[1]), kind = w[2];
    if (kind === 'dragged' || kind === 'say' || kind === 'watching' || kind === 'unwatching') {
      if (seq > S.seq) { sync(); return; }
      if (seq < S.seq) return;
    } else {
      if (seq <= S.seq) return;
      if (seq !== S.seq + 1) { sync(); return; }
      S.seq = seq;
    }
    const p = S.pieces[Number(w[3])];
    switch (kind) {
      case 'joined': {
        const id = Number(w[3]);
        const old = S.players.get(id);
        const pl = old || { id, moves: 0, hintUsed: false };
        pl.name = w.slice(4).join(' '); pl.present = true; pl.slot = freeSlot();
        S.players.set(id, pl);
        if (id !== S.id) sysMessage(`${pl.name} joined`);
        break;
      }
      case 'left': {
        const pl = S.players.get(Number(w[3]));
        if (pl) { pl.present = false; pl.slot = -1; if (pl.id !== S.id) sysMessage(`${pl.name} left`); }
        break;
      }
      case 'forgotten': S.players.delete(Number(w[3])); break;
      case 'watching': {
        const id = Number(w[3]), name = w.slice(4).join(' ');
        if (!S.watchers.has(id) && id !== S.id) sysMessage(`${name} is watching`);
        S.watchers.set(id, name); renderWatchers();
        break;
      }
      case 'unwatching': {
        const id = Number(w[3]);
        if (S.watchers.has(id) && id !== S.id) sysMessage(`${S.watchers.get(id)} stopped watching`);
        S.watchers.delete(id); renderWatchers();
        break;
      }
      case 'grabbed':
        if (p) {
          p.holder = Number(w[4]); p.hx = posOf(p).x; p.hy = posOf(p).y; p.hrot = p.rot; p.target = '-';
          p.z = ++S.zTop; sortDirty = true;
        }
        break;
      case 'dragged':
        if (p) { p.hx = Number(w[5]); p.hy = Number(w[6]); p.target = w[7] || '-'; }
        break;
      case 'rotated':
        if (p) { p.hrot = Number(w[5]); p.target = w[6] || '-'; setRotGoal(p, p.hrot); }
        break;
      case 'placed':
        if (p) {
          const by = Number(w[4]);
          if (w[5] === 'cell') { p.cell = true; p.r = Number(w[6]); p.c = Number(w[7]); }
          else { p.cell = false; p.x = Number(w[6]); p.y = Number(w[7]); p.z = ++S.zTop; sortDirty = true; }
          p.rot = Number(w[8]) || 0;
          p.holder = 0; p.target = '-';
          if (drag.piece === p.id && by === S.id) endDrag();
          setRotGoal(p, p.rot);
          if (p.cell && by !== S.id) flashCell(p.r, p.c, by);
        }
        break;
      case 'swapped': {
        const o = S.pieces[Number(w[4])];
        if (p && o) {
          const r = p.r, c = p.c;
          p.r = o.r; p.c = o.c; o.r = r; o.c = c;
          p.holder = 0; p.target = '-';
          if (drag.piece === p.id) endDrag();
        }
        break;
      }
      case 'released': case 'expired': case 'returned':
        if (p) {
          p.holder = 0; p.target = '-';
          setRotGoal(p, p.rot);
          if (drag.piece === p.id) endDrag();
          if (kind === 'expired' && Number(w[4]) === S.id) {
            const msg = `Piece ${p.id} went back: held ${S.lease / 1000} s without a move.`;
            toast(msg); sysMessage(msg, 'err');
          }
        }
        break;
      case 'solved':
        S.solvedMs = Number(w[4]);
        for (const q of S.pieces) if (q) { q.holder = 0; q.target = '-'; }
        endDrag();
        sysMessage(`Solved in ${clockText(S.solvedMs)}! 🎉`);
        break;
      case 'next':
        sysMessage(`Next puzzle: ${w[5]} ${w[4]}${w[6] === 'on' ? ' with rotation' : ''}`);
        endDrag();
        // The new layout and picture come with a snapshot: the page computes nothing.
        S.seq = seq - 1; S.syncing = false;
        sync();
        break;
      case 'hint': {
        const pl = S.players.get(Number(w[3]));
        if (pl && pl.id !== S.id) sysMessage(`${pl.name} looked at the hint`);
        break;
      }
      case 'say': {
        const id = Number(w[3]);
        chatMessage(S.players.get(id) || (S.watchers.has(id) ? { id, name: S.watchers.get(id) } : null), w.slice(4).join(' '));
        break;
      }
      default: break;
    }
    hudDirty = true;
    needDraw();
  }
  function freeSlot() {
    const used = new Set();
    for (const pl of S.players.values()) if (pl.present && pl.slot >= 0) used.add(pl.slot);
    let s = 0;
    while (used.has(s)) s++;
    return s;
  }
  function colorOf(id) {
    const pl = S.players.get(id);
    const slot = pl && pl.slot >= 0 ? pl.slot : id;
    return PALETTE[((slot % PALETTE.length) + PALETTE.length) % PALETTE.length];
  }
  function nameOf(id) { const pl = S.players.get(id); return pl ? pl.name : `#${id}`; }

  // ----------------------------------------------------------- geometry
  function posOf(p) {
    if (p.cell) return { x: S.table.bx + p.c * UNIT, y: S.table.by + p.r * UNIT };
    return { x: p.x, y: p.y };
  }
  function goal(p) {
    if (p.holder === S.id && drag.piece === p.id) return { x: drag.x, y: drag.y, rot: p.hrot };
    if (p.holder) return { x: p.hx, y: p.hy, rot: p.hrot };
    const q = posOf(p);
    return { x: q.x, y: q.y, rot: p.rot };
  }
  function setRotGoal(p, rot) {
    const cur = ((Math.round(p.rotGoal) % 4) + 4) % 4;
    let d = ((rot - cur) % 4 + 4) % 4;
    if (d === 3) d = -1;
    p.rotGoal = Math.round(p.rotGoal) + d;
  }
  function toTable(sx, sy) { return { x: (sx - view.ox) / view.scale, y: (sy - view.oy) / view.scale }; }
  function toScreen(x, y) { return { x: view.ox + x * view.scale, y: view.oy + y * view.scale }; }
  function cellTarget(t) {
    if (!t || t === '-') return null;
    const m = /^(\d+),(\d+)$/.exec(t);
    return m ? { r: Number(m[1]), c: Number(m[2]) } : null;
  }

  // ---------------------------------------------------------- piece shapes
  const paths = new Map();
  function edgeSign(str, index) {
    const ch = str[index];
    return ch === 't' ? 1 : ch === 'b' ? -1 : 0;
  }
  /** Tab (+1) or blank (-1) of a piece's right and bottom edges, 0 flat. */
  function rightEdge(id) {
    const r = Math.floor(id / S.cols), c = id % S.cols;
    if (!S.edges || c >= S.cols - 1) return 0;
    const s = S.edges.right;
    return edgeSign(s, s.length === S.rows * S.cols ? id : r * (S.cols - 1) + c);
  }
  function bottomEdge(id) {
    const r = Math.floor(id / S.cols);
    if (!S.edges || r >= S.rows - 1) return 0;
    return edgeSign(S.edges.bottom, id);
  }
  function jitter(n) {
    let h = (n * 2654435761) >>> 0;
    h ^= h >>> 15; h = Math.imul(h, 2246822519) >>> 0; h ^= h >>> 13;
    return ((h % 1000) / 1000 - 0.5) * 0.12;
  }
  /** One edge from (x0,y0) to (x1,y1) (cell units, clockwise), `s` +1 tab out, -1 blank, 0 flat. */
  function edge(path, x0, y0, x1, y1, s, b) {
    if (!s) { path.lineTo(x1, y1); return; }
    const dx = x1 - x0, dy = y1 - y0, nx = dy * s, ny = -dx * s, t = 0.1;
    const P = (u, v) => [x0 + dx * u + nx * v, y0 + dy * u + ny * v];
    const pts = [P(0.2, 0), P(0.5 + b, -t), P(0.5 - t + b, t), P(0.5 - 2 * t + b, 3 * t), P(0.5 + 2 * t + b, 3 * t),
      P(0.5 + t + b, t), P(0.5 + b, -t), P(0.8, 0), [x1, y1]];
    for (let i = 0; i < 9; i += 3) path.bezierCurveTo(pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1], pts[i + 2][0], pts[i + 2][1]);
  }
  /** A piece's outline in its own cell units (0..1, tabs beyond), unrotated. */
  function pathOf(id) {
    let path = paths.get(id);
    if (path) return path;
    path = new Path2D();
    if (S.kind !== 'jigsaw' || !S.edges) {
      path.rect(0, 0, 1, 1);
    } else {
      const r = Math.floor(id / S.cols), c = id % S.cols, n = S.cols;
      const top = r > 0 ? -bottomEdge(id - n) : 0, left = c > 0 ? -rightEdge(id - 1) : 0;
      path.moveTo(0, 0);
      edge(path, 0, 0, 1, 0, top, jitter(2 * (id - n) + 1));
      edge(path, 1, 0, 1, 1, rightEdge(id), jitter(2 * id));
      edge(path, 1, 1, 0, 1, bottomEdge(id), -jitter(2 * id + 1));
      edge(path, 0, 1, 0, 0, left, -jitter(2 * (id - 1)));
      path.closePath();
    }
    paths.set(id, path);
    return path;
  }

  // --------------------------------------------------------------- sprites
  const sprites = new Map();
  const SPRITE_PIXELS = 20e6;
  let spritePixels = 0;
  let spriteSize = 0, spriteWanted = 0, spriteTimer = 0;
  function wantedSpriteSize() {
    const cell = UNIT * view.scale * (window.devicePixelRatio || 1);
    // Every piece on screen at once stays within SPRITE_PIXELS (about 80 MB):
    // zoomed in, fewer pieces show, so each may be finer.
    const onScreen = Math.max(1, (cw * ch) / Math.max(1, cell * cell));
    const n = Math.max(1, Math.min(S.rows * S.cols, onScreen * 2));
    const cap = Math.max(16, Math.floor(Math.sqrt(SPRITE_PIXELS / n) / (1 + 2 * PAD)));
    const ladder = [12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384];
    let s = ladder[ladder.length - 1];
    for (const v of ladder) if (v >= cell) { s = v; break; }
    return Math.min(s, cap, 384);
  }
  function checkSpriteSize() {
    const w = wantedSpriteSize();
    if (w === spriteSize) return;
    if (!spriteSize) { spriteSize = w; sprites.clear(); spritePixels = 0; return; }
    if (w !== spriteWanted) {
      spriteWanted = w;
      clearTimeout(spriteTimer);
      spriteTimer = setTimeout(() => { spriteSize = spriteWanted; sprites.clear(); spritePixels = 0; needDraw(); }, 150);
    }
  }
  function spriteOf(p, style) {
    const key = p.id * 4 + style;
    let c = sprites.get(key);
    if (c) return c;
    const s = spriteSize, pad = Math.ceil(s * PAD), size = s + 2 * pad;
    // Panning a zoomed-in big board cuts piece after piece: start afresh past the budget.
    if (spritePixels + size * size > SPRITE_PIXELS * 1.2) { sprites.clear(); spritePixels = 0; }
    spritePixels += size * size;
    c = document.createElement('canvas');
    c.width = size; c.height = size;
    const g = c.getContext('2d');
    const pic = currentPicture();
    const path = pathOf(p.id);
    const r = Math.floor(p.id / S.cols), col = p.id % S.cols;
    g.translate(pad, pad);
    g.scale(s, s);
    g.save();
    g.clip(path);
    if (pic) {
      const pw = pic.width / S.cols, ph = pic.height / S.rows;
      g.imageSmoothingQuality = 'high';
      g.drawImage(pic, (col - PAD) * pw, (r - PAD) * ph, pw * (1 + 2 * PAD), ph * (1 + 2 * PAD), -PAD, -PAD, 1 + 2 * PAD, 1 + 2 * PAD);
    } else {
      g.fillStyle = '#667';
      g.fillRect(-PAD, -PAD, 1 + 2 * PAD, 1 + 2 * PAD);
    }
    if (style === 0 && S.kind === 'jigsaw') {
      // A loose piece: a light bevel on the top left, a shade on the bottom right.
      g.lineWidth = 3 / s;
      g.strokeStyle = 'rgba(255,255,255,0.35)';
      g.translate(1 / s, 1 / s); g.stroke(path); g.translate(-2 / s, -2 / s);
      g.strokeStyle = 'rgba(0,0,0,0.35)'; g.stroke(path); g.translate(1 / s, 1 / s);
    }
    g.restore();
    g.lineWidth = Math.max(1, s / 64) / s;
    if (S.kind === 'swap') {
      g.strokeStyle = 'rgba(0,0,0,0.75)'; g.strokeRect(0, 0, 1, 1);
      g.strokeStyle = 'rgba(255,255,255,0.3)'; g.strokeRect(1.5 / s, 1.5 / s, 1 - 3 / s, 1 - 3 / s);
    } else {
      g.strokeStyle = style === 0 ? 'rgba(0,0,0,0.8)' : 'rgba(0,0,0,0.22)';
      g.stroke(path);
    }
    sprites.set(key, c);
    return c;
  }

  // ------------------------------------------------------------------ view
  const canvas = $('table');
  const ctx = canvas.getContext('2d');
  let cw = 0, ch = 0, dpr = 1;
  function viewArea() {
    const bar = $('bar').getBoundingClientRect();
    let right = canvas.clientWidth, bottom = canvas.clientHeight;
    const chat = $('chat');
    if (!chat.hidden && canvas.clientWidth >= 900) right -= chat.offsetWidth + 16;
    else if (!chat.hidden) bottom -= chat.offsetHeight + 16;
    return { x: 0, y: bar.bottom, w: Math.max(50, right), h: Math.max(50, bottom - bar.bottom) };
  }
  // Tabs stick out of the table's edge pieces by up to PAD of a cell: fit leaves room for them.
  const fitMargin = () => (S.kind === 'jigsaw' ? 2 * PAD * UNIT : 0);
  function fitScale() {
    if (!S.table) return 8;
    const a = viewArea(), m = fitMargin();
    return Math.min((a.w - 16) / (S.table.w + m), (a.h - 16) / (S.table.h + m));
  }
  function fit() {
    if (!S.table) return;
    const a = viewArea();
    view.scale = fitScale();
    view.ox = a.x + (a.w - S.table.w * view.scale) / 2;
    view.oy = a.y + (a.h - S.table.h * view.scale) / 2;
    view.fitted = true;
    ensurePicture();
    needDraw();
  }
  function zoomAt(sx, sy, factor) {
    const min = fitScale() * 0.5, max = 160; // at most 640 CSS px a cell
    const scale = Math.min(max, Math.max(min, view.scale * factor));
    const k = scale / view.scale;
    view.ox = sx - (sx - view.ox) * k;
    view.oy = sy - (sy - view.oy) * k;
    view.scale = scale;
    view.fitted = false;
    ensurePicture();
    needDraw();
  }
  function zoomCenter(factor) {
    const a = viewArea();
    zoomAt(a.x + a.w / 2, a.y + a.h / 2, factor);
  }
  function panBy(dx, dy) {
    view.ox += dx; view.oy += dy; view.fitted = false;
    // Keep a part of the table in sight.
    if (S.table) {
      const w = S.table.w * view.scale, h = S.table.h * view.scale, m = 60;
      view.ox = Math.min(canvas.clientWidth - m, Math.max(m - w, view.ox));
      view.oy = Math.min(canvas.clientHeight - m, Math.max(m - h, view.oy));
    }
    needDraw();
  }
  function layoutChanged() {
    if (view.fitted || !S.table) fit();
    needDraw();
  }

  // --------------------------------------------------------------- drawing
  let frameAsked = false, lastFrame = 0, sortDirty = true, order = [];
  const flashes = [];
  function needDraw() {
    if (frameAsked) return;
    frameAsked = true;
    requestAnimationFrame(frame);
  }
  function flashCell(r, c, by) { flashes.push({ r, c, color: colorOf(by), until: now() + 500 }); }
  let hudDirty = false;
  function frame(t) {
    frameAsked = false;
    if (hudDirty) { hudDirty = false; updateHud(); }
    const dt = lastFrame ? Math.min(100, t - lastFrame) : 16;
    lastFrame = t;
    const moving = S.inGame ? animate(dt) : false;
    if (S.inGame) draw();
    if (moving || (S.hintUntil && now() < S.hintUntil) || flashes.length) needDraw();
    else lastFrame = 0;
  }
  function animate(dt) {
    const a = 1 - Math.exp(-dt / 55);
    let moving = false;
    for (const p of S.pieces) {
      if (!p) continue;
      const g = goal(p);
      if (p.holder === S.id && drag.piece === p.id) { p.dx = g.x; p.dy = g.y; }
      else if (Math.abs(p.dx - g.x) > 0.01 || Math.abs(p.dy - g.y) > 0.01) {
        p.dx += (g.x - p.dx) * a; p.dy += (g.y - p.dy) * a; moving = true;
      } else { p.dx = g.x; p.dy = g.y; }
      if (Math.abs(p.drot - p.rotGoal) > 0.01) { p.drot += (p.rotGoal - p.drot) * a; moving = true; }
      else p.drot = p.rotGoal;
    }
    return moving;
  }
  function resizeCanvas() {
    dpr = window.devicePixelRatio || 1;
    const w = Math.round(canvas.clientWidth * dpr), h = Math.round(canvas.clientHeight * dpr);
    if (w !== cw || h !== ch) { cw = w; ch = h; canvas.width = w; canvas.height = h; }
  }
  function drawPiece(p, sprite) {
    const k = view.scale * dpr;
    const cx = view.ox * dpr + (p.dx + UNIT / 2) * k, cy = view.oy * dpr + (p.dy + UNIT / 2) * k;
    const cellPx = UNIT * k, size = cellPx * (1 + 2 * PAD);
    const ang = p.drot * Math.PI / 2;
    if (ang) {
      ctx.setTransform(Math.cos(ang), Math.sin(ang), -Math.sin(ang), Math.cos(ang), cx, cy);
      ctx.drawImage(sprite, -size / 2, -size / 2, size, size);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    } else {
      ctx.drawImage(sprite, cx - size / 2, cy - size / 2, size, size);
    }
  }
  function tracePiece(p) {
    // The piece's outline in device pixels, for rings around held pieces.
    const k = view.scale * dpr, cell = UNIT * k;
    const cx = view.ox * dpr + (p.dx + UNIT / 2) * k, cy = view.oy * dpr + (p.dy + UNIT / 2) * k;
    const ang = p.drot * Math.PI / 2, cos = Math.cos(ang) * cell, sin = Math.sin(ang) * cell;
    ctx.setTransform(cos, sin, -sin, cos, cx, cy);
    ctx.translate(-0.5, -0.5);
  }
  function draw() {
    const t0 = now();
    resizeCanvas();
    checkSpriteSize();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#10151b';
    ctx.fillRect(0, 0, cw, ch);
    if (!S.joined || !S.table) return;
    const k = view.scale * dpr, T = S.table;
    const X = (x) => view.ox * dpr + x * k, Y = (y) => view.oy * dpr + y * k;
    // The table and the board.
    ctx.fillStyle = S.kind === 'jigsaw' ? '#2a3f4d' : '#222c36';
    roundRect(X(0), Y(0), T.w * k, T.h * k, Math.min(14 * dpr, k));
    ctx.fill();
    const bx = X(T.bx), by = Y(T.by), bw = S.cols * UNIT * k, bh = S.rows * UNIT * k;
    ctx.fillStyle = '#141c24';
    ctx.fillRect(bx, by, bw, bh);
    const pic = currentPicture();
    if (pic && S.lid && S.kind === 'jigsaw') {
      ctx.globalAlpha = 0.2;
      ctx.drawImage(pic, bx, by, bw, bh);
      ctx.globalAlpha = 1;
    }
    if (UNIT * k >= 10) {
      ctx.strokeStyle = 'rgba(255,255,255,0.07)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let c = 1; c < S.cols; c++) { const x = Math.round(bx + c * UNIT * k) + 0.5; ctx.moveTo(x, by); ctx.lineTo(x, by + bh); }
      for (let r = 1; r < S.rows; r++) { const y = Math.round(by + r * UNIT * k) + 0.5; ctx.moveTo(bx, y); ctx.lineTo(bx + bw, y); }
      ctx.stroke();
    }
    ctx.strokeStyle = 'rgba(255,255,255,0.25)';
    ctx.lineWidth = Math.max(1, dpr);
    ctx.strokeRect(bx - 0.5, by - 0.5, bw + 1, bh + 1);
    // Pieces: placed, then loose by height, then held (others', then mine).
    if (sortDirty) {
      order = S.pieces.filter(Boolean).slice().sort((a, b) => a.z - b.z);
      sortDirty = false;
    }
    const margin = UNIT * k * (0.5 + PAD);
    const visible = (p) => {
      const x = X(p.dx), y = Y(p.dy);
      return x + UNIT * k + margin > 0 && y + UNIT * k + margin > 0 && x - margin < cw && y - margin < ch;
    };
    for (const p of order) if (p.cell && !p.holder && visible(p)) drawPiece(p, spriteOf(p, 1));
    for (const p of order) if (!p.cell && !p.holder && visible(p)) drawPiece(p, spriteOf(p, 0));
    // Drop targets, in each holder's colour.
    const held = order.filter((p) => p.holder);
    for (const p of held) {
      const t = cellTarget(p.target);
      if (!t) continue;
      const col = colorOf(p.holder);
      const x = X(T.bx + t.c * UNIT), y = Y(T.by + t.r * UNIT), s = UNIT * k;
      ctx.fillStyle = col;
      ctx.globalAlpha = p.holder === S.id ? 0.35 : 0.22;
      ctx.fillRect(x, y, s, s);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = col;
      ctx.lineWidth = Math.max(2, 3 * dpr);
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, s - ctx.lineWidth, s - ctx.lineWidth);
      ctx.setLineDash([]);
    }
    while (flashes.length && flashes[0].until <= now()) flashes.shift();
    for (const f of flashes) {
      const left = f.until - now();
      if (left <= 0) continue;
      ctx.globalAlpha = Math.min(1, left / 300) * 0.6;
      ctx.strokeStyle = f.color;
      ctx.lineWidth = Math.max(2, 3 * dpr);
      ctx.strokeRect(X(T.bx + f.c * UNIT), Y(T.by + f.r * UNIT), UNIT * k, UNIT * k);
      ctx.globalAlpha = 1;
    }
    held.sort((a, b) => (a.holder === S.id) - (b.holder === S.id) || a.z - b.z);
    // A soft shadow lifts a held piece; with many held (a crowd), only your own.
    const shadows = held.length <= 12;
    for (const p of held) {
      const sprite = spriteOf(p, S.kind === 'jigsaw' ? 0 : 1);
      if (shadows || p.holder === S.id) {
        ctx.shadowColor = 'rgba(0,0,0,0.55)';
        ctx.shadowBlur = 14 * dpr;
        ctx.shadowOffsetY = 5 * dpr;
      }
      drawPiece(p, sprite);
      ctx.shadowColor = 'transparent'; ctx.shadowBlur = 0; ctx.shadowOffsetY = 0;
      // A ring in the holder's colour.
      tracePiece(p);
      ctx.strokeStyle = colorOf(p.holder);
      ctx.lineWidth = (p.holder === S.id ? 3 : 2.5) * dpr / (UNIT * k);
      ctx.stroke(pathOf(p.id));
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    }
    // The hint: the whole picture over the board for a moment.
    if (S.hintUntil && pic) {
      const left = S.hintUntil - now();
      if (left > 0) {
        ctx.globalAlpha = Math.min(1, left / 300) * 0.92;
        ctx.drawImage(pic, bx, by, bw, bh);
        ctx.globalAlpha = 1;
      } else S.hintUntil = 0;
    }
    // Names by the pieces other players hold.
    ctx.font = `600 ${12 * dpr}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    for (const p of held) {
      if (p.holder === S.id) continue;
      const label = nameOf(p.holder);
      const tw = ctx.measureText(label).width + 12 * dpr, th = 20 * dpr;
      const x = X(p.dx + UNIT / 2) - tw / 2, y = Y(p.dy) - th - UNIT * k * 0.12 - 2 * dpr;
      ctx.fillStyle = colorOf(p.holder);
      roundRect(x, y, tw, th, 6 * dpr);
      ctx.fill();
      ctx.fillStyle = '#111';
      ctx.fillText(label, x + 6 * dpr, y + th / 2 + dpr);
    }
    const cd = countdown(), mine = S.pieces[drag.piece];
    if (cd && mine) {
      const label = `${cd}`, r = 13 * dpr;
      const x = X(mine.dx + UNIT) + 2 * dpr, y = Y(mine.dy) - 2 * dpr;
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fillStyle = cd <= 2 ? '#e6194b' : '#f58231'; ctx.fill();
      ctx.fillStyle = '#fff'; ctx.textAlign = 'center';
      ctx.font = `700 ${15 * dpr}px system-ui, sans-serif`;
      ctx.fillText(label, x, y + dpr);
      ctx.textAlign = 'start';
    }
    const dtDraw = now() - t0;
    // Milestones since the page started loading (performance.now()'s origin).
    if (!debug.firstDrawAt) debug.firstDrawAt = now();
    if (!debug.sharpDrawAt && S.hiPicture) debug.sharpDrawAt = now();
    debug.frames++;
    debug.drawTimes.push(dtDraw);
    if (debug.drawTimes.length > 600) debug.drawTimes.splice(0, 300);
  }
  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  // ---------------------------------------------------------- hit testing
  function pieceAt(sx, sy) {
    const t = toTable(sx, sy);
    const inside = (p) => t.x >= p.dx && t.x < p.dx + UNIT && t.y >= p.dy && t.y < p.dy + UNIT;
    if (sortDirty) { order = S.pieces.filter(Boolean).slice().sort((a, b) => a.z - b.z); sortDirty = false; }
    for (let i = order.length - 1; i >= 0; i--) { const p = order[i]; if (p.holder && inside(p)) return p; }
    for (let i = order.length - 1; i >= 0; i--) { const p = order[i]; if (!p.holder && !p.cell && inside(p)) return p; }
    for (let i = order.length - 1; i >= 0; i--) { const p = order[i]; if (!p.holder && p.cell && inside(p)) return p; }
    return null;
  }

  // ------------------------------------------------------------- dragging
  function clampPos(x, y) {
    const T = S.table;
    return { x: Math.min(T.w - UNIT, Math.max(0, x)), y: Math.min(T.h - UNIT, Math.max(0, y)) };
  }
  /** Takes a piece: GRAB now, drags and the drop follow it down the line. */
  function startDrag(p, via, offX, offY) {
    if (S.watching) { toast(ERRORS.WATCHING); return false; }
    if (S.solvedMs !== null) { toast(ERRORS.SOLVED); return false; }
    if (p.holder && p.holder !== S.id) { toast(`Piece ${p.id} is held by ${nameOf(p.holder)}.`); return false; }
    if (drag.piece >= 0 && drag.piece !== p.id) dropDrag();
    const gen = ++drag.gen;
    drag.piece = p.id; drag.via = via; drag.offX = offX; drag.offY = offY;
    drag.x = p.dx; drag.y = p.dy; drag.sentX = Math.round(p.dx); drag.sentY = Math.round(p.dy);
    drag.lastSent = now(); drag.lastKey = now(); drag.leaseEnd = now() + S.lease;
    if (!p.holder) { p.holder = S.id; p.hx = p.dx; p.hy = p.dy; p.hrot = p.rot; p.target = '-'; p.z = ++S.zTop; sortDirty = true; }
    req(`GRAB ${p.id}`, null, (code, text) => {
      if (gen !== drag.gen) return true;
      if (code === 'LINK') return true;
      if (p.holder === S.id) p.holder = 0;
      endDrag();
      needDraw();
      showError(code, text);
      return true;
    });
    canvas.classList.add('dragging');
    needDraw();
    return true;
  }
  function moveDrag(x, y) {
    const q = clampPos(x, y);
    drag.x = q.x; drag.y = q.y;
    needDraw();
    scheduleFlush();
  }
  let flushAsked = false;
  function scheduleFlush() {
    if (flushAsked) return;
    flushAsked = true;
    requestAnimationFrame(() => { flushAsked = false; flushDrag(); });
  }
  /** Sends the held piece's position, rounded to table units, if it changed. */
  function flushDrag() {
    if (drag.piece < 0 || !link.up) return;
    const x = Math.round(drag.x), y = Math.round(drag.y);
    if (x === drag.sentX && y === drag.sentY) return;
    const t = now();
    drag.sentX = x; drag.sentY = y; drag.lastSent = t;
    const gen = drag.gen, id = drag.piece;
    req(`DRAG ${id} ${x} ${y}`, (line) => {
      const w = line.split(' ');
      const p = S.pieces[id];
      if (gen === drag.gen) drag.leaseEnd = t + S.lease;
      if (p && gen === drag.gen && p.holder === S.id) p.target = w[5] || '-';
      needDraw();
    }, (code) => gen !== drag.gen || code === 'RATE_LIMITED' || code === 'NOT_HOLDER' || code === 'LINK');
  }
  function dropDrag() {
    if (drag.piece < 0) return;
    const id = drag.piece, gen = drag.gen;
    if (!link.up) { S.pendingResume = id; drag.down = false; return; }
    drag.sentX = NaN;
    flushDrag();
    req(`DROP ${id}`, (line) => {
      if (/ returned$/.test(line) && gen === drag.gen) needDraw();
    }, (code, text) => {
      if (code === 'NOT_HOLDER' || code === 'LINK') return true;
      showError(code, text);
      return true;
    });
    endDrag();
  }
  function releaseDrag() {
    if (drag.piece < 0) return;
    send(`RELEASE ${drag.piece}`, null);
    endDrag();
  }
  function endDrag() {
    const id = drag.piece;
    drag.piece = -1; drag.down = false; drag.via = ''; drag.pointerId = null; drag.twist = null;
    drag.gen++;
    canvas.classList.remove('dragging');
    const p = S.pieces[id];
    // Until the server says where it went, the piece stays where it was let go.
    if (p && p.holder === S.id) { p.hx = drag.x; p.hy = drag.y; }
    needDraw();
  }
  /** Turns the held piece, or a loose piece in place (taken, turned, put down). */
  function rotate(target) {
    if (!S.rotation) { toast(ERRORS.ROTATION_OFF); return; }
    if (S.watching) { toast(ERRORS.WATCHING); return; }
    if (drag.piece >= 0) {
      const t = now(), gen = drag.gen;
      req(`ROTATE ${drag.piece}`, () => { if (gen === drag.gen) drag.leaseEnd = t + S.lease; }, (c) => c === 'LINK');
      drag.lastKey = t; return;
    }
    const p = target || lastTouched();
    if (!p) { toast('Take a piece first, then turn it.'); return; }
    if (p.cell || p.holder) { toast('Take the piece to turn it.'); return; }
    if (S.solvedMs !== null) return;
    req(`GRAB ${p.id}`, () => {
      req(`ROTATE ${p.id}`, () => req(`DROP ${p.id}`), () => { send(`RELEASE ${p.id}`); });
    });
  }
  let lastTouchedId = -1;
  function lastTouched() { return lastTouchedId >= 0 ? S.pieces[lastTouchedId] : null; }
  // Presence: KEEP while the pointer is down on a held piece, or keys came lately.
  function present() { return drag.down || (drag.via === 'key' && now() - drag.lastKey < S.lease / 3); }
  /** Seconds left of my hold's lease in its last 5 s while no KEEP goes out, else 0. */
  function countdown() {
    if (drag.piece < 0 || present() || !link.up) return 0;
    const left = drag.leaseEnd - now();
    return left > 0 && left <= 5000 ? Math.ceil(left / 1000) : 0;
  }
  setInterval(() => {
    if (drag.piece < 0 || !link.up) return;
    const third = S.lease / 3, t = now();
    if (present() && t - drag.lastSent > Math.min(third, 5000)) {
      drag.lastSent = t;
      const gen = drag.gen;
      req(`KEEP ${drag.piece}`, (line) => {
        if (gen === drag.gen) drag.leaseEnd = t + (Number(line.split(' ')[3]) || S.lease);
      }, () => gen !== drag.gen || true);
    }
    if (drag.leaseEnd - t < 6000) needDraw();
  }, 250);

  // ------------------------------------------------------------- pointers
  const pointers = new Map();
  let gesture = null; // pan or pinch
  function pointerXY(e) { const r = canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
  let lastPointerType = 'mouse';
  canvas.addEventListener('pointerdown', (e) => {
    lastPointerType = e.pointerType;
    if (!S.joined) return;
    canvas.focus({ preventScroll: true });
    const pt = pointerXY(e);
    pointers.set(e.pointerId, { x: pt.x, y: pt.y, x0: pt.x, y0: pt.y, t0: now() });
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* gone */ }
    if (e.pointerType === 'mouse' && e.button === 2) return; // contextmenu turns
    if (pointers.size === 2) {
      if (drag.down && drag.pointerId !== null && pointers.has(drag.pointerId)) {
        const a = pointers.get(drag.pointerId);
        drag.twist = { id: e.pointerId, angle: Math.atan2(pt.y - a.y, pt.x - a.x), turned: 0, t0: now() };
        return;
      }
      startPinch();
      return;
    }
    if (pointers.size > 2) return;
    if (e.button === 1) { gesture = { kind: 'pan', id: e.pointerId, x: pt.x, y: pt.y }; return; }
    const p = pieceAt(pt.x, pt.y);
    if (p && !S.watching && (!p.holder || p.holder === S.id)) {
      lastTouchedId = p.id;
      const t = toTable(pt.x, pt.y);
      if (startDrag(p, 'pointer', t.x - p.dx, t.y - p.dy)) { drag.down = true; drag.pointerId = e.pointerId; }
      e.preventDefault();
      return;
    }
    if (p && p.holder) toast(`Piece ${p.id} is held by ${nameOf(p.holder)}.`);
    gesture = { kind: 'pan', id: e.pointerId, x: pt.x, y: pt.y };
  });
  canvas.addEventListener('pointermove', (e) => {
    const pt = pointerXY(e);
    const ptr = pointers.get(e.pointerId);
    if (ptr) { ptr.x = pt.x; ptr.y = pt.y; }
    if (drag.down && e.pointerId === drag.pointerId) {
      const t = toTable(pt.x, pt.y);
      moveDrag(t.x - drag.offX, t.y - drag.offY);
      drag.lastKey = now();
      checkTwist();
      return;
    }
    if (drag.twist && e.pointerId === drag.twist.id) { checkTwist(); return; }
    if (gesture && gesture.kind === 'pinch') { movePinch(); return; }
    if (gesture && gesture.kind === 'pan' && gesture.id === e.pointerId) {
      panBy(pt.x - gesture.x, pt.y - gesture.y);
      gesture.x = pt.x; gesture.y = pt.y;
      return;
    }
    if (e.pointerType === 'mouse' && !pointers.size) {
      const p = S.joined ? pieceAt(pt.x, pt.y) : null;
      canvas.classList.toggle('over-piece', !!p && !p.holder && !S.watching);
    }
  });
  function pointerEnd(e, cancelled) {
    const ptr = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    if (drag.twist && e.pointerId === drag.twist.id) {
      // A second finger's quick tap turns the piece once.
      if (!drag.twist.turned && ptr && now() - ptr.t0 < 350 && Math.hypot(ptr.x - ptr.x0, ptr.y - ptr.y0) < 12) rotate();
      drag.twist = null;
      return;
    }
    if (drag.down && e.pointerId === drag.pointerId) {
      if (cancelled) releaseDrag(); else dropDrag();
      return;
    }
    if (gesture && gesture.kind === 'pinch') {
      if (pointers.size === 1) {
        const [id, q] = [...pointers.entries()][0];
        gesture = { kind: 'pan', id, x: q.x, y: q.y };
      } else if (!pointers.size) gesture = null;
      return;
    }
    if (gesture && gesture.id === e.pointerId) gesture = null;
  }
  canvas.addEventListener('pointerup', (e) => { pointerEnd(e, false); pointersDone(); });
  canvas.addEventListener('pointercancel', (e) => { pointerEnd(e, true); pointersDone(); });
  canvas.addEventListener('lostpointercapture', (e) => { if (pointers.has(e.pointerId)) pointerEnd(e, false); });
  function checkTwist() {
    const tw = drag.twist;
    if (!tw || !pointers.has(tw.id) || !pointers.has(drag.pointerId)) return;
    const a = pointers.get(drag.pointerId), b = pointers.get(tw.id);
    const ang = Math.atan2(b.y - a.y, b.x - a.x);
    let d = ang - tw.angle;
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    if (Math.abs(d) >= Math.PI / 4) {
      // Clockwise on screen is a quarter turn; anticlockwise three.
      const n = d > 0 ? 1 : 3;
      for (let i = 0; i < n; i++) rotate();
      tw.angle += d > 0 ? Math.PI / 2 : -Math.PI / 2;
      tw.turned++;
    }
  }
  function startPinch() {
    const [a, b] = [...pointers.values()];
    gesture = { kind: 'pinch', d0: Math.max(10, Math.hypot(b.x - a.x, b.y - a.y)), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2,
      scale: view.scale, ox: view.ox, oy: view.oy };
  }
  function movePinch() {
    const pts = [...pointers.values()];
    if (pts.length < 2) return;
    const [a, b] = pts, g = gesture;
    const d = Math.max(10, Math.hypot(b.x - a.x, b.y - a.y));
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    const min = fitScale() * 0.5, max = 160;
    const scale = Math.min(max, Math.max(min, g.scale * d / g.d0));
    // The table point under the first midpoint stays under the fingers.
    const tx = (g.mx - g.ox) / g.scale, ty = (g.my - g.oy) / g.scale;
    view.scale = scale; view.ox = mx - tx * scale; view.oy = my - ty * scale; view.fitted = false;
    ensurePicture();
    needDraw();
  }
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (!S.joined) return;
    const pt = pointerXY(e);
    const dy = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
    zoomAt(pt.x, pt.y, Math.exp(-dy * 0.0015));
  }, { passive: false });
  canvas.addEventListener('contextmenu', (e) => {
    e.preventDefault();
    if (!S.joined || lastPointerType !== 'mouse') return;
    const pt = pointerXY(e);
    if (drag.piece >= 0) { rotate(); return; }
    const p = pieceAt(pt.x, pt.y);
    if (p) { lastTouchedId = p.id; rotate(p); }
  });

  // ------------------------------------------------------------------ keys
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
    if (!S.inGame) return;
    if (typing) {
      if (e.key === 'Escape') { e.target.blur(); canvas.focus(); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    drag.lastKey = now();
    const step = e.shiftKey ? UNIT : 1, pan = e.shiftKey ? 160 : 60;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (arrows[e.key]) {
      const [dx, dy] = arrows[e.key];
      if (drag.piece >= 0 && !drag.down) moveDrag(Math.round(drag.x) + dx * step, Math.round(drag.y) + dy * step);
      else panBy(-dx * pan, -dy * pan);
      e.preventDefault();
      return;
    }
    switch (e.key) {
      case 'Tab': e.preventDefault(); keyGrab(e.shiftKey ? -1 : 1); break;
      case 'Enter':
        e.preventDefault();
        if (drag.piece >= 0 && !drag.down) dropDrag();
        else openChat(true);
        break;
      case 'Escape':
        if (drag.piece >= 0 && !drag.down) releaseDrag();
        else if (!$('lid').hidden) toggleLid(false);
        else if (!$('who').hidden || !$('help').hidden) { $('who').hidden = true; $('help').hidden = true; }
        else showRooms();
        break;
      case '+': case '=': zoomCenter(1.25); break;
      case '-': case '_': zoomCenter(0.8); break;
      case '0': case 'f': case 'F': fit(); break;
      case 'r': case 'R': case ' ': e.preventDefault(); rotate(); break;
      case 'l': case 'L': if (S.lid) toggleLid(); break;
      case 'h': case 'H': askHint(); break;
      case 'n': case 'N': if (S.solvedMs !== null) askNext(); break;
      case 'w': case 'W': toggleWho(); break;
      case 'c': case 'C': openChat(true); break;
      case '?': toggleHelp(); break;
      default: break;
    }
  });
  function keyGrab(dir) {
    if (drag.down) return;
    if (S.watching) { toast(ERRORS.WATCHING); return; }
    const loose = S.pieces.filter((p) => p && !p.cell && !p.holder);
    const pool = loose.length ? loose : S.pieces.filter((p) => p && p.cell && !p.holder && (S.kind === 'swap' || !placedRight(p)));
    if (!pool.length) return;
    const cur = drag.piece;
    if (cur >= 0) releaseDrag();
    pool.sort((a, b) => a.id - b.id);
    let i = pool.findIndex((p) => p.id > cur);
    if (dir < 0) { i = -1; for (let j = pool.length - 1; j >= 0; j--) if (pool[j].id < cur) { i = j; break; } }
    const p = pool[i >= 0 ? i : dir > 0 ? 0 : pool.length - 1];
    lastTouchedId = p.id;
    startDrag(p, 'key', 0, 0);
    // Bring it into view.
    const s = toScreen(p.dx + UNIT / 2, p.dy + UNIT / 2), a = viewArea();
    if (s.x < a.x || s.y < a.y || s.x > a.x + a.w || s.y > a.y + a.h) panBy(a.x + a.w / 2 - s.x, a.y + a.h / 2 - s.y);
  }
  function placedRight(p) { return p.cell && p.r * S.cols + p.c === p.id && p.rot === 0; }

  // -------------------------------------------------------------- the HUD
  function progress() {
    let n = 0;
    for (const p of S.pieces) if (p && placedRight(p)) n++;
    return n;
  }
  function clockText(ms) {
    const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = s % 60;
    const two = (v) => String(v).padStart(2, '0');
    return h ? `${h}:${two(m)}:${two(ss)}` : `${m}:${two(ss)}`;
  }
  function clockNow() {
    if (S.solvedMs !== null) return S.solvedMs;
    return S.elapsed + (S.running ? now() - S.elapsedAt : 0);
  }
  function updateHud() {
    if (!S.joined) return;
    const total = S.rows * S.cols, done = progress();
    $('room-title').textContent = `${S.room} · ${S.watching ? 'watching · ' : ''}${S.kind} ${S.rows}×${S.cols}`;
    $('watchnote').hidden = !S.watching;
    $('progress-text').textContent = `${done}/${total}`;
    $('progress-fill').style.width = `${total ? (100 * done / total).toFixed(1) : 0}%`;
    $('clock').textContent = clockText(clockNow());
    $('b-rotate').hidden = !S.rotation || S.watching;
    $('b-lid').hidden = !S.lid;
    $('b-hint').hidden = S.lid;
    $('b-hint').disabled = S.hintUsed || S.watching;
    const solved = S.solvedMs !== null;
    $('solved').hidden = !solved;
    if (solved) $('solved-text').textContent = `Solved in ${clockText(S.solvedMs)}! 🎉`;
    if (!$('who').hidden) refreshWhoSoon();
  }
  setInterval(() => { if (S.inGame) $('clock').textContent = clockText(clockNow()); }, 500);
  function toggleLid(force) {
    const el = $('lid');
    el.hidden = force === undefined ? !el.hidden : !force;
    $('b-lid').classList.toggle('on', !el.hidden);
    drawLid();
  }
  function drawLid() {
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
  function askHint() {
    if (S.lid) { toggleLid(); return; }
    if (S.watching) { toast(ERRORS.WATCHING); return; }
    req('HINT', (line) => {
      const ms = Number(line.split(' ')[2]) || S.hintMs;
      S.hintUsed = true;
      S.hintUntil = now() + ms;
      updateHud();
      needDraw();
    }, (code, text) => { if (code === 'HINT_USED') { S.hintUsed = true; updateHud(); } showError(code, text); return true; });
  }
  function askNext() {
    if (S.watching) { toast(ERRORS.WATCHING); return; }
    req('NEXT', null, (code, text) => { showError(code, text); return true; });
  }

  // -------------------------------------------------------------- players
  let whoTimer = 0;
  function toggleWho() {
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
    req('WHO', (line, s) => {
      const list = $('who-list');
      list.textContent = '';
      const watchers = new Map();
      for (const l of s) {
        const w = l.split(' ');
        if (w[1] !== 'who') continue;
        const id = Number(w[2]);
        if (w[4] === 'watching') { watchers.set(id, w[3]); continue; }
        const v = kv(l);
        const li = document.createElement('li');
        const sw = document.createElement('span');
        sw.className = 'swatch';
        sw.style.background = colorOf(id);
        const name = document.createElement('span');
        name.textContent = w[3] + (id === S.id ? ' (you)' : '');
        const info = document.createElement('span');
        info.className = 'dim';
        const moves = Number(v.moves) || 0;
        info.textContent = `${moves} move${moves === 1 ? '' : 's'}` + (v.holding && v.holding !== '-' ? ` · holds ${v.holding}` : '');
        li.append(sw, name, info);
        list.append(li);
      }
      S.watchers = watchers;
      renderWatchers();
    }, (code) => code === 'LINK');
  }
  function renderWatchers() {
    const list = $('watch-list');
    list.textContent = '';
    for (const [id, name] of S.watchers) {
      const li = document.createElement('li');
      li.textContent = name + (id === S.id ? ' (you)' : '');
      list.append(li);
    }
    $('watch-head').hidden = !S.watchers.size;
  }
  function toggleHelp() {
    $('help').hidden = !$('help').hidden;
    $('who').hidden = true;
  }

  // ----------------------------------------------------------------- chat
  let unread = 0;
  function addMessage(li) {
    const list = $('messages');
    const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
    list.append(li);
    while (list.children.length > 300) list.firstChild.remove();
    if (stick) list.scrollTop = list.scrollHeight;
  }
  function chatMessage(pl, text) {
    const li = document.createElement('li');
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = (pl ? pl.name : '?') + ': ';
    if (pl) who.style.color = colorOf(pl.id);
    li.append(who, document.createTextNode(text));
    addMessage(li);
    if ($('chat').hidden && (!pl || pl.id !== S.id)) { unread++; $('unread').textContent = String(unread); $('unread').hidden = false; }
  }
  function sysMessage(text, cls) {
    const li = document.createElement('li');
    li.className = cls || 'sys';
    li.textContent = text;
    addMessage(li);
  }
  function openChat(focus) {
    const el = $('chat');
    if (el.hidden) { el.hidden = false; unread = 0; $('unread').hidden = true; layoutChanged(); }
    $('messages').scrollTop = $('messages').scrollHeight;
    $('b-chat').classList.add('on');
    if (focus) $('chat-input').focus();
  }
  function toggleChat() {
    const el = $('chat');
    if (el.hidden) openChat(false);
    else { el.hidden = true; $('b-chat').classList.remove('on'); layoutChanged(); }
  }
  $('chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('chat-input');
    let text = input.value.replace(/\s+/g, ' ').trim();
    if (!text) return;
    // Lines are at most 1024 bytes on the wire.
    const enc = new TextEncoder();
    while (enc.encode(text).length > 1000) text = Array.from(text).slice(0, -1).join('');
    req(`SAY ${text}`, () => { input.value = ''; }, (code, t) => { if (code === 'LINK') { toast('Not sent: the link is down.'); return true; } showError(code, t); return true; });
  });
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

  // -------------------------------------------------------------- messages
  function readable(code, text) {
    if (code === 'LINK') return 'The link to the server dropped.';
    if (text && code !== 'BAD_ARGS' && code !== 'UNKNOWN_VERB') return text.charAt(0).toUpperCase() + text.slice(1);
    return ERRORS[code] || `${code}: ${text}`;
  }
  function showError(code, text) {
    const msg = readable(code, text);
    if (S.inGame) { toast(msg); sysMessage(msg, 'err'); } else lobbyError(msg);
  }
  let toastTimer = 0;
  function toast(text, info) {
    const el = $('toast');
    el.textContent = text;
    el.classList.toggle('info', !!info);
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
  }
  function lobbyError(text) {
    const el = $('lobby-error');
    el.textContent = text || '';
    if (text && !$('lobby').hidden) el.scrollIntoView({ block: 'nearest' });
  }
  function setLinkState(text) { $('link-state').textContent = text; }
  let statusTimer = 0;
  function showStatus(kind, text) {
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
      if (!S.inGame) lobbyError(text);
    }
    el.hidden = false;
  }

  // ---------------------------------------------------------------- lobby
  function showNameBox() {
    $('name-box').hidden = false;
    $('rooms-box').hidden = true;
    $('name').value = S.name || store.get('puzzle-room:name') || '';
    $('name').focus();
  }
  function showLobby() {
    S.inGame = false;
    $('lobby').hidden = false;
    $('game').hidden = true;
    if (link.up) { $('name-box').hidden = true; $('rooms-box').hidden = false; }
    $('back-row').hidden = !S.joined;
  }
  function showRooms() { if (drag.piece >= 0) dropDrag(); showLobby(); listRooms(); }
  function showGame() {
    S.inGame = true;
    $('lobby').hidden = true;
    $('game').hidden = false;
    lobbyError('');
    // A narrow screen keeps the chat closed unless it is tall enough for both.
    if (window.innerWidth < 900 && window.innerHeight < window.innerWidth * 1.6 && !$('chat').dataset.init) $('chat').hidden = true;
    $('chat').dataset.init = '1';
    $('b-chat').classList.toggle('on', !$('chat').hidden);
    $('watchnote').hidden = !S.watching; // before fit: it takes a row of the bar
    resizeCanvas();
    fit();
    updateHud();
    // Lines that came while the table was hidden could not scroll it: show the latest.
    $('messages').scrollTop = $('messages').scrollHeight;
    canvas.focus({ preventScroll: true });
  }
  function leaveGame() {
    S.joined = false; S.room = null; S.password = null; S.inGame = false; S.watching = false; S.watchers = new Map();
    S.pieces = []; endDrag();
    history.replaceState(null, '', location.pathname);
  }
  let roomsTimer = 0;
  function listRooms() {
    clearTimeout(roomsTimer);
    if (S.inGame || $('lobby').hidden) return;
    req('ROOMS', (line, s) => {
      renderRooms(s);
      roomsTimer = setTimeout(listRooms, 4000);
    }, (code) => code === 'LINK');
  }
  let openPasswordFor = null;
  function renderRooms(lines) {
    const ul = $('rooms');
    const focused = document.activeElement;
    if (focused && focused.tagName === 'INPUT' && focused.closest('#rooms')) return; // do not pull a password field from under the fingers
    ul.textContent = '';
    for (const l of lines) {
      const w = l.split(' ');
      if (w[1] !== 'room') continue;
      const name = w[2], v = kv(l);
      const li = document.createElement('li');
      if (S.joined && name === S.room) li.classList.add('current');
      const title = document.createElement('span');
      title.className = 'rname';
      title.textContent = name + (v.password === 'yes' ? ' 🔒' : '');
      const info = document.createElement('span');
      info.className = 'rinfo';
      const [c, t] = (v.progress || '0/0').split('/').map(Number);
      const players = Number(v.players) || 0, watchers = Number(v.watchers) || 0;
      info.textContent = `${v.kind} ${(v.size || '').replace('x', '×')}${v.rotation === 'on' ? ' · rotation' : ''} · ` +
        `${players}${v.seats ? `/${v.seats}` : ''} player${players === 1 && !v.seats ? '' : 's'}` +
        (watchers ? ` · ${watchers} watching` : '') + ` · ${c}/${t} placed` + (/ solved$/.test(l) ? ' · solved' : '');
      const meter = document.createElement('span');
      meter.className = 'meter';
      const fill = document.createElement('span');
      fill.style.width = `${t ? (100 * c / t).toFixed(1) : 0}%`;
      meter.append(fill);
      info.append(meter);
      const act = document.createElement('span');
      act.className = 'rjoin';
      if (S.joined && name === S.room) {
        const b = document.createElement('button');
        b.type = 'button'; b.textContent = 'Back'; b.className = 'primary';
        b.addEventListener('click', showGame);
        act.append(b);
        if (S.watching) act.append(button('Join', () => join(name, S.password), 'room', name));
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
        act.append(button('Join', () => join(name, null), 'room', name), button('Watch', () => watch(name, null), 'watch', name, ''));
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
  function openPassword(room) { openPasswordFor = room; listRooms(); }
  $('name-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!NAME_RE.test(name) || name === '.' || name === '..') { lobbyError(ERRORS.BAD_NAME); return; }
    lobbyError('');
    S.name = name;
    store.set('puzzle-room:name', name);
    link.attempt = 0;
    connect();
  });
  $('change-name').addEventListener('click', () => {
    stopLink('');
    if (S.joined) leaveGame();
    S.room = null;
    showNameBox();
  });
  $('rooms-refresh').addEventListener('click', listRooms);
  $('back-to-table').addEventListener('click', showGame);
  $('leave-room').addEventListener('click', () => {
    req('LEAVE', () => { leaveGame(); showLobby(); listRooms(); });
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
      if (pw) line += ` password=${pw}`;
      req(line, () => { clearPhoto(); join(name, pw || null); }, (code, text) => { lobbyError(readable(code, text)); return true; });
    };
    if (!upload.file) { create(null); return; }
    // The photo goes up first, named after the room it is for.
    uploadPhoto(upload.file, name, 0, create);
  });

  // ---------------------------------------------------- a photo of one's own
  // Picked with the file input (phones offer their photos), or dropped on the
  // form; sent as UPLOAD then DATA lines of base64 over the WebSocket
  // (PROTOCOL.md, "Uploaded pictures"), then the room is made from it.
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
  function uploadPhoto(file, room, attempt, then) {
    const suffix = attempt ? `-${attempt + 1}` : '';
    const name = room.slice(0, 24 - suffix.length) + suffix;
    upload.busy = true;
    $('create-form').querySelector('button[type=submit]').disabled = true;
    showProgress(0, `Reading ${file.name}…`);
    const failed = (code, text) => {
      uploadDone();
      if (code === 'PICTURE_EXISTS' && attempt < 4) { uploadPhoto(file, room, attempt + 1, then); return true; }
      showProgress(null);
      lobbyError(`The photo: ${readable(code, text)}`);
      return true;
    };
    file.arrayBuffer().then((buffer) => {
      const bytes = new Uint8Array(buffer);
      req(`UPLOAD ${name} ${bytes.length}`, (ready) => {
        if (!link.up || !link.ws || link.ws.readyState !== WebSocket.OPEN) { failed('LINK', ''); return; }
        const per = Math.max(1, Math.floor((Number(kv(ready).line) || 1016) / 4)) * 3;
        // Every DATA line at once, nothing between them: together they get one reply.
        const ws = link.ws;
        let queued = 0;
        for (let i = 0; i < bytes.length; i += per) {
          const chunk = bytes.subarray(i, i + per);
          const line = 'DATA ' + btoa(String.fromCharCode.apply(null, chunk));
          queued += line.length;
          ws.send(line);
        }
        trace(`> DATA × ${Math.ceil(bytes.length / per)} (${bytes.length} bytes)`);
        const started = ws.bufferedAmount;
        const tick = () => {
          const left = ws.bufferedAmount;
          if (left > 0) showProgress(1 - left / Math.max(started, queued, 1), `Sending ${sizeText(bytes.length)}… ${Math.round(100 * (1 - left / Math.max(started, queued, 1)))}%`);
          else showProgress(1, 'Sent: the server checks the photo…');
        };
        tick();
        upload.timer = setInterval(tick, 100);
        link.pending.push((reply) => {
          if (reply === null) { failed('LINK', ''); return; }
          const m = /^OK uploaded (\S+) (\d+)x(\d+)/.exec(reply);
          if (!m) {
            const e = /^ERR (\S+) ?(.*)$/.exec(reply) || [null, 'ERR', reply];
            failed(e[1], e[2]);
            return;
          }
          uploadDone();
          showProgress(1, `Uploaded (${m[2]}×${m[3]}): making the room…`);
          setTimeout(() => showProgress(null), 1500);
          then(m[1]);
        });
      }, failed);
    }, () => failed('READ', 'the file could not be read'));
  }
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

  // ----------------------------------------------------------- game buttons
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
  $('b-join').addEventListener('click', () => join(S.room, S.password));
  // Buttons keep no focus, so keys go on to the table.
  for (const b of document.querySelectorAll('#bar button')) b.addEventListener('pointerup', () => b.blur());
  // A fitted view fits again on resize, but not under a finger or the mouse:
  // the point under the pointer must not move mid-drag (a phone's bars come and go).
  let refitLater = false;
  window.addEventListener('resize', () => {
    resizeCanvas();
    if (view.fitted && pointers.size) refitLater = true;
    else if (view.fitted) fit();
    else needDraw();
    drawLid();
  });
  function pointersDone() { if (!pointers.size && refitLater) { refitLater = false; if (view.fitted) fit(); } }

  // ------------------------------------------------------------- start up
  const hashRoom = decodeURIComponent(location.hash.slice(1));
  const savedName = store.get('puzzle-room:name');
  if (savedName && NAME_RE.test(savedName)) {
    S.name = savedName;
    if (NAME_RE.test(hashRoom)) S.room = hashRoom;
    $('name').value = savedName;
    connect();
  } else {
    showNameBox();
  }

  // For the browser tests and the curious: where things are on the screen.
  window.puzzlePage = {
    debug,
    state: () => ({
      connected: link.up, joined: S.joined, inGame: S.inGame, room: S.room, id: S.id, name: S.name,
      watching: S.watching, watchers: [...S.watchers.values()], countdown: countdown(),
      kind: S.kind, rows: S.rows, cols: S.cols, puzzle: S.puzzle, seq: S.seq, solved: S.solvedMs !== null,
      placed: progress(), edges: !!S.edges, table: S.table, hiPicture: S.hiWidth, hiBackoff: S.hiBackoff, hasPicture: !!S.picture, holding: drag.piece,
      held: S.pieces.filter((p) => p && p.holder).map((p) => ({ piece: p.id, holder: p.holder, target: p.target })),
    }),
    piece: (id) => {
      const p = S.pieces[id];
      if (!p) return null;
      const s = toScreen(p.dx + UNIT / 2, p.dy + UNIT / 2);
      return { x: s.x, y: s.y, cell: p.cell, r: p.r, c: p.c, rot: p.rot, holder: p.holder, target: p.target, tx: p.x, ty: p.y };
    },
    cell: (r, c) => S.table && toScreen(S.table.bx + c * UNIT + UNIT / 2, S.table.by + r * UNIT + UNIT / 2),
    unit: () => view.scale,
    // The link dropping under the page (as when a phone changes networks).
    dropLink: () => { if (link.ws) link.ws.close(); },
  };
})();
