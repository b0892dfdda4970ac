// The server's lines (Protocol/PROTOCOL.md, version 2) read into plain
// objects: replies, events, S records and goodbyes. Only what the words say;
// what the page does with them is elsewhere. Pure (no DOM), so node tests it.

/** The lines of one WebSocket message: one line a message, but an LF inside ends a line. */
export function linesOf(message) {
  const out = [];
  for (const line of String(message).split('\n')) if (line.length) out.push(line.replace(/\r$/, ''));
  return out;
}

/** A line's first word: `OK`, `ERR`, `PONG` (replies), `S` (a record of the
 *  reply that follows), `EV` (an event) or `BYE`. */
export function lineKind(line) {
  const sp = line.indexOf(' ');
  return sp < 0 ? line : line.slice(0, sp);
}

export const isReply = (kind) => kind === 'OK' || kind === 'ERR' || kind === 'PONG';

/** The `key=value` words of a line. */
export function kv(line) {
  const out = {};
  for (const w of line.split(' ')) {
    const i = w.indexOf('=');
    if (i > 0) out[w.slice(0, i)] = w.slice(i + 1);
  }
  return out;
}

/** `ERR <CODE> <text>`; a line of another shape is its own text. */
export function parseError(line) {
  const m = /^ERR (\S+) ?(.*)$/.exec(line);
  return m ? { code: m[1], text: m[2] } : { code: 'ERR', text: line };
}

/** `RxC` to numbers (0 when absent). */
export function parseSize(text) {
  const s = (text || '0x0').split('x');
  return { rows: Number(s[0]), cols: Number(s[1]) };
}

const num = (w) => Number(w);
const optionalNumber = (w) => (w === undefined ? null : Number(w));

/** A reply: `{ ok: false, code, text }` for ERR, else `{ ok: true, verb,
 *  values }` (values: its key=value words) with the verb's own fields. */
export function parseReply(line) {
  if (line.startsWith('ERR')) return { ok: false, ...parseError(line) };
  const w = line.split(' '), values = kv(line);
  if (w[0] === 'PONG') return { ok: true, verb: 'pong', token: w[1] ?? null, values };
  const r = { ok: true, verb: w[1] || '', values };
  switch (r.verb) {
    case 'hello':
      r.version = Number(values.version); r.id = Number(values.id); r.name = values.name || ''; r.token = values.token || null;
      break;
    case 'joined': case 'watching': case 'sync':
      if (r.verb !== 'sync') r.room = w[2];
      r.seq = Number(values.seq) || 0; r.run = values.run || '';
      r.missed = optionalNumber(values.missed);
      if (values.digest) r.digest = values.digest;
      break;
    case 'layout': r.count = num(w[2]); r.puzzle = Number(values.puzzle); r.seed = values.seed || ''; break;
    case 'picture': r.width = num(w[2]); r.height = num(w[3]); r.hash = w[4] || ''; break;
    case 'grabbed': case 'released': r.piece = num(w[2]); break;
    case 'dragged': r.piece = num(w[2]); r.x = num(w[3]); r.y = num(w[4]); r.target = w[5] || '-'; break;
    case 'rotated': r.piece = num(w[2]); r.rotation = num(w[3]); break;
    case 'dropped':
      // `cell r c`, `table x y`, `swapped cell r c` or `returned`, then ` solved` when it solved the puzzle.
      r.piece = num(w[2]); r.solved = w[w.length - 1] === 'solved';
      r.outcome = w.slice(3, r.solved ? -1 : undefined).join(' ');
      break;
    case 'kept': r.piece = num(w[2]); r.leaseLeft = num(w[3]); break;
    case 'hint': r.ms = num(w[2]); break;
    case 'next': r.puzzle = num(w[2]); r.roomKind = w[3]; Object.assign(r, parseSize(w[4])); break;
    case 'upload': r.picture = w[2]; r.bytes = Number(values.bytes); r.lineChars = Number(values.line); break;
    case 'uploaded': {
      const m = /^(\d+)x(\d+)$/.exec(w[3] || '');
      r.picture = w[2]; r.width = m ? Number(m[1]) : NaN; r.height = m ? Number(m[2]) : NaN; r.sha256 = values.sha256 || '';
      break;
    }
    case 'created':
      // `size=RxC asked=N` when a piece count was asked: the board made.
      r.room = w[2];
      if (values.size && values.asked) { Object.assign(r, parseSize(values.size)); r.asked = Number(values.asked); }
      break;
    case 'left': r.room = w[2]; break;
    case 'rooms': case 'who': case 'help': case 'history': r.count = num(w[2]); break;
    case 'replay': r.puzzle = num(w[2]); r.moves = num(w[3]); r.more = optionalNumber(values.more); break;
    default: break; // said, bye, stats (values), and later versions' replies
  }
  return r;
}

/** The events that carry the room's sequence number without advancing it. */
const UNSEQUENCED = new Set(['dragged', 'say', 'watching', 'unwatching']);

/** `EV <seq> <kind> ...`: `{ seq, kind, sequenced }` and the kind's fields. */
export function parseEvent(line) {
  const w = line.split(' ');
  const e = { seq: Number(w[1]), kind: w[2], sequenced: !UNSEQUENCED.has(w[2]) };
  switch (e.kind) {
    case 'joined': case 'watching': {
      e.id = num(w[3]);
      // `joined <id> <name> color=<slot>`: the player's own colour slot,
      // there only when it is not the lowest free one.
      const last = w.length > 5 ? w[w.length - 1] : '';
      if (e.kind === 'joined' && last.startsWith('color=')) { e.color = num(last.slice(6)); w.pop(); }
      e.name = w.slice(4).join(' ');
      break;
    }
    case 'left': case 'forgotten': case 'unwatching': e.id = num(w[3]); break;
    case 'grabbed': case 'released': case 'expired': e.piece = num(w[3]); e.id = num(w[4]); break;
    case 'returned': e.piece = num(w[3]); e.id = num(w[4]); e.why = w[5] || ''; break;
    case 'dragged': e.piece = num(w[3]); e.id = num(w[4]); e.x = num(w[5]); e.y = num(w[6]); e.target = w[7] || '-'; break;
    case 'rotated': e.piece = num(w[3]); e.id = num(w[4]); e.rotation = num(w[5]); e.target = w[6] || '-'; break;
    case 'placed':
      e.piece = num(w[3]); e.id = num(w[4]); e.cell = w[5] === 'cell';
      if (e.cell) { e.row = num(w[6]); e.col = num(w[7]); } else { e.x = num(w[6]); e.y = num(w[7]); }
      e.rotation = Number(w[8]) || 0;
      break;
    case 'swapped': case 'merged': e.piece = num(w[3]); e.other = num(w[4]); e.id = num(w[5]); break;
    case 'solved': e.puzzle = num(w[3]); e.elapsed = num(w[4]); break;
    case 'next':
      e.puzzle = num(w[3]); e.roomKind = w[4]; e.size = w[5] || ''; Object.assign(e, parseSize(w[5]));
      e.rotation = w[6] === 'on'; e.picture = w[7] || '';
      break;
    case 'hint': e.id = num(w[3]); e.ms = num(w[4]); break;
    case 'say': e.id = num(w[3]); e.text = w.slice(4).join(' '); break;
    default: break; // later versions' events
  }
  return e;
}

/** A `S <kind> ...` record: `{ kind }` and the kind's fields; an unknown
 *  kind (room for additions) is `{ kind, line }`. */
export function parseRecord(line) {
  const w = line.split(' '), kind = w[1];
  switch (kind) {
    case 'room': {
      // The snapshot's room and each room ROOMS lists: a name, then key=value words.
      const values = kv(line);
      return { kind, name: w[2], values, roomKind: values.kind, ...parseSize(values.size), listedSolved: w[w.length - 1] === 'solved' };
    }
    case 'player':
      return { kind, id: num(w[2]), moves: num(w[3]), hintUsed: w[4] === '1', hintLeft: w[5], name: w.slice(6).join(' ') };
    case 'total': return { kind, id: num(w[2]), moves: num(w[3]) };
    case 'color': return { kind, id: num(w[2]), slot: num(w[3]) };
    case 'absent':
      return { kind, id: num(w[2]), moves: num(w[3]), totalMoves: num(w[4]), hintUsed: w[5] === '1', name: w.slice(6).join(' ') };
    case 'former': return { kind, moves: num(w[2]), totalMoves: num(w[3]) };
    case 'watcher': return { kind, id: num(w[2]), name: w.slice(3).join(' ') };
    case 'clock':
      if (w.length !== 4) return { kind: 'unreadable', line };
      return { kind, elapsed: Number(w[2]) || 0, running: w[3] === 'running' };
    case 'piece': return { kind, id: num(w[2]), ...placeOf(w, 3) };
    case 'pieces':
      // `home|start <ranges>` or `home|start bits <base64>`.
      return { kind, set: w[2], bits: w[3] === 'bits' ? w[4] || '' : null, ranges: w[3] === 'bits' ? '' : w[3] || '' };
    case 'part':
      // `<id> <ranges>`: the pieces joined into part <id> (its lowest).
      return { kind, id: num(w[2]), members: pieceIds({ bits: null, ranges: w[3] || '' }, Infinity) };
    case 'hold':
      return { kind, piece: num(w[2]), holder: num(w[3]), x: num(w[4]), y: num(w[5]), rotation: Number(w[6]) || 0,
        target: w[7] || '-', leaseLeft: Number(w[8]) || 0 };
    case 'table': return { kind, width: num(w[2]), height: num(w[3]), boardX: num(w[4]), boardY: num(w[5]) };
    case 'edges': return { kind, right: w[2] || '', bottom: w[3] || '' };
    case 'picture': return { kind, width: num(w[2]), height: num(w[3]), hash: w[4] || '' };
    case 'px': return { kind, row: w[2] || '' };
    case 'png': case 'jpeg': return { kind, data: w[2] || '' };
    case 'start': return { kind, form: w[2], data: w[3] || '' };
    case 'who': {
      const values = kv(line);
      return { kind, id: num(w[2]), name: w[3], watching: w[4] === 'watching', moves: Number(values.moves) || 0, holding: values.holding || '-' };
    }
    case 'help': return { kind, text: w.slice(2).join(' ') };
    case 'history': {
      const values = kv(line);
      return { kind, puzzle: num(w[2]), roomKind: w[3], ...parseSize(w[4]), rotation: w[5] === 'on', picture: w[6],
        elapsed: Number(values.elapsed), moves: Number(values.moves), players: Number(values.players) };
    }
    case 'history-player': {
      const values = kv(line);
      return { kind, puzzle: num(w[2]), id: num(w[3]), placed: Number(values.placed), moves: Number(values.moves), name: w.slice(6).join(' ') };
    }
    case 'replay-start': {
      const values = kv(line);
      return { kind, puzzle: num(w[2]), roomKind: w[3], ...parseSize(w[4]), rotation: w[5] === 'on', picture: w[6],
        seed: values.seed || '', elapsed: Number(values.elapsed), moves: Number(values.moves), players: Number(values.players),
        truncated: w[w.length - 1] === 'truncated' };
    }
    case 'replay-player': {
      const values = kv(line);
      return { kind, id: num(w[2]), placed: Number(values.placed), moves: Number(values.moves), name: w.slice(5).join(' ') };
    }
    case 'replay': {
      const r = { kind, elapsed: num(w[2]), id: num(w[3]), move: w[4], piece: num(w[5]) };
      if (r.move === 'swapped' || r.move === 'merged') r.other = num(w[6]);
      else Object.assign(r, placeOf(w, 6));
      return r;
    }
    default: return { kind, line };
  }
}

/** `cell <row> <col> <rotation>` or `table <x> <y> <rotation>` from word `at`. */
function placeOf(w, at) {
  const rotation = Number(w[at + 3]) || 0;
  if (w[at] === 'cell') return { cell: true, row: num(w[at + 1]), col: num(w[at + 2]), rotation };
  return { cell: false, x: num(w[at + 1]), y: num(w[at + 2]), rotation };
}

/** `BYE <CODE> <text>`. */
export function parseBye(line) {
  return { code: line.split(' ')[1] || '', text: line.slice(4) };
}

/** Standard base64 to bytes (as a string of char codes 0..255, as atob gives). */
export const fromBase64 = (text) => atob(text || '');

/** The piece numbers of a `S pieces` record, below `count` (the puzzle's pieces). */
export function pieceIds(record, count) {
  const ids = [];
  if (record.bits !== null) {
    // A bitmap: bit i, high bit first, is piece i.
    const bin = fromBase64(record.bits);
    for (let id = 0; id < count && (id >> 3) < bin.length; id++) {
      if (bin.charCodeAt(id >> 3) & (0x80 >> (id & 7))) ids.push(id);
    }
    return ids;
  }
  for (const part of record.ranges.split(',')) {
    const ends = part.split('-'), a = Number(ends[0]), b = ends.length > 1 ? Number(ends[1]) : a;
    for (let id = a; id <= b && id < count; id++) ids.push(id);
  }
  return ids;
}

/** Where a LAYOUT reply's records put each piece at the puzzle's start:
 *  `{ cell, r, c, rot }` or `{ cell, x, y, rot }` by piece number. */
export function startLayout(records) {
  const start = [];
  // Compact: `S start table|cell <base64>`, three bytes a piece (a slot's
  // x/5, y/5 and the rotation; or a cell's row, column, rotation).
  let n = 0;
  for (const rec of records) {
    if (rec.kind !== 'start') continue;
    const bin = fromBase64(rec.data);
    for (let i = 0; i + 2 < bin.length; i += 3, n++) {
      const a = bin.charCodeAt(i), b = bin.charCodeAt(i + 1), rot = bin.charCodeAt(i + 2);
      start[n] = rec.form === 'cell' ? { cell: true, r: a, c: b, rot } : { cell: false, x: a * 5, y: b * 5, rot };
    }
  }
  // A layout no byte can hold comes as one `S piece` line a piece.
  for (const rec of records) {
    if (rec.kind !== 'piece') continue;
    start[rec.id] = rec.cell ? { cell: true, r: rec.row, c: rec.col, rot: rec.rotation } : { cell: false, x: rec.x, y: rec.y, rot: rec.rotation };
  }
  return start;
}
