import PuzzleCore

/// Writes and reads reply lines (see `Reply`). The encoder is the server's only
/// way to answer; the decoder is how the play client and the bench read answers.
public enum ReplyCodec {
    /// Appends the line for `reply`, with its LF terminator.
    @inlinable
    public static func encode<Sink: ByteSink>(_ reply: Reply, into out: inout Sink) {
        func sp() { out.append(UInt8(ascii: " ")) }
        func num(_ v: Int) { sp(); out.append(decimal: v) }
        func word(_ s: String) { sp(); out.append(text: s) }
        func field(_ key: StaticString, _ value: String) { sp(); out.append(ascii: key); out.append(UInt8(ascii: "=")); out.append(text: value) }
        func field(_ key: StaticString, _ value: Int) { field(key, String(value)) }
        switch reply {
        case .pong(let token):
            out.append(ascii: "PONG")
            if !token.isEmpty { word(token) }
        case .error(let e):
            out.append(ascii: "ERR")
            word(e.code.rawValue)
            word(e.message)
        default:
            out.append(ascii: "OK")
        }
        switch reply {
        case .pong, .error: break
        case .hello(let version, let player, let name, let token):
            out.append(ascii: " hello")
            field("version", version); field("id", player.rawValue); field("name", name)
            if let token { field("token", token) }
            field("server", "puzzle-room")
        case .help(let n): out.append(ascii: " help"); num(n)
        case .rooms(let n): out.append(ascii: " rooms"); num(n)
        case .stats(let fields):
            out.append(ascii: " stats")
            for f in fields { word("\(f.key)=\(f.value)") }
        case .created(let room, let rows, let cols, let asked):
            out.append(ascii: " created"); word(room)
            if let rows, let cols, let asked {
                out.append(ascii: " size="); out.append(decimal: rows); out.append(ascii: "x"); out.append(decimal: cols)
                out.append(ascii: " asked="); out.append(decimal: asked)
            }
        case .joined(let room, let player, let seq, let run, let missed):
            out.append(ascii: " joined"); word(room); field("id", player.rawValue); field("seq", String(seq))
            if let run { field("run", run) }
            if let missed { field("missed", missed) }
        case .left(let room): out.append(ascii: " left"); word(room)
        case .watching(let room, let seq, let run):
            out.append(ascii: " watching"); word(room); field("seq", String(seq)); field("run", run)
        case .synced(let seq, let digest, let run, let missed):
            out.append(ascii: " sync"); field("seq", String(seq)); field("digest", digest)
            if let run { field("run", run) }
            if let missed { field("missed", missed) }
        case .digest(let d):
            out.append(ascii: " digest")
            field("seq", String(d.seq)); field("value", d.value); field("correct", d.correct)
            field("total", d.total); field("held", d.held); field("puzzle", d.puzzle)
        case .picture(let w, let h, let hash): out.append(ascii: " picture"); num(w); num(h); word(hash)
        case .layout(let n, let puzzle, let seed):
            out.append(ascii: " layout"); num(n); field("puzzle", puzzle); field("seed", String(seed))
        case .who(let n): out.append(ascii: " who"); num(n)
        case .history(let n): out.append(ascii: " history"); num(n)
        case .replay(let puzzle, let moves, let more):
            out.append(ascii: " replay"); num(puzzle); num(moves)
            if let more { field("more", more) }
        case .grabbed(let piece): out.append(ascii: " grabbed"); num(piece)
        case .dragged(let piece, let to, let target):
            out.append(ascii: " dragged"); num(piece); num(to.x); num(to.y)
            if let t = target { num(t.row); out.append(UInt8(ascii: ",")); out.append(decimal: t.col) } else { out.append(ascii: " -") }
        case .rotated(let piece, let rotation): out.append(ascii: " rotated"); num(piece); num(rotation)
        case .dropped(let piece, let outcome, let solved):
            out.append(ascii: " dropped"); num(piece)
            switch outcome {
            case .placed(let c): out.append(ascii: " cell"); num(c.row); num(c.col)
            case .onTable(let p): out.append(ascii: " table"); num(p.x); num(p.y)
            case .swapped(let c): out.append(ascii: " swapped cell"); num(c.row); num(c.col)
            case .returned: out.append(ascii: " returned")
            }
            if solved { out.append(ascii: " solved") }
        case .released(let piece): out.append(ascii: " released"); num(piece)
        case .kept(let piece, let left): out.append(ascii: " kept"); num(piece); num(Int(left))
        case .hint(let ms): out.append(ascii: " hint"); num(Int(ms))
        case .paced(let ms): out.append(ascii: " pace"); num(ms)
        case .events(let on): out.append(ascii: on ? " events on" : " events off")
        case .next(let puzzle, let kind, let rows, let cols):
            out.append(ascii: " next"); num(puzzle); word(kind.rawValue); num(rows); out.append(UInt8(ascii: "x")); out.append(decimal: cols)
        case .said: out.append(ascii: " said")
        case .uploadReady(let name, let bytes, let chars):
            out.append(ascii: " upload"); word(name); field("bytes", bytes); field("line", chars)
        case .uploaded(let name, let width, let height, let sha):
            out.append(ascii: " uploaded"); word(name); num(width); out.append(UInt8(ascii: "x")); out.append(decimal: height)
            field("sha256", sha)
        case .bye: out.append(ascii: " bye")
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The line for `reply`, without its terminator (for logs and tests).
    public static func line(_ reply: Reply) -> String {
        String(encodedLine: { encode(reply, into: &$0) })
    }

    /// Reads a reply line (without its terminator). Nil when the line is not a
    /// reply (an event, a state line, a goodbye) or is not one this version writes.
    public static func decode(_ line: Substring) -> Reply? {
        var line = line
        return line.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Reads a reply line from its bytes (without terminator), where they lie:
    /// the one reader of replies, for the play client, the bench and the tests.
    /// The grammar is PROTOCOL.md's, read as `EventCodec` reads events: words
    /// separated by one or more spaces, each reply with exactly its words
    /// (`key=value` fields in any order among them); numbers an optional `-`
    /// and digits (no `+`, no other leading junk; leading zeros are digits,
    /// as in requests), fitting an `Int` (sequence numbers and seeds: digits
    /// only, fitting 64 bits); a cell `r,c` or `-`, a size `RxC`.
    public static func decode(_ line: UnsafeRawBufferPointer) -> Reply? {
        guard !line.isEmpty else { return nil }
        var s = LineScanner(line)
        let head = s.word()
        if s.matches(head, "PONG") { return .pong(token: rest(&s)) }
        if s.matches(head, "ERR") { return error(&s).map(Reply.error) }
        guard s.matches(head, "OK") else { return nil }
        let kind = s.word()
        s.skipSpaces()
        /// Where the words after the kind start: fields are looked up among them.
        let args = s.position
        func field(_ key: StaticString) -> Range<Int>? { s.field(key, from: args) }
        func text(_ key: StaticString) -> String? { field(key).map { s.text($0) } }
        func int(_ key: StaticString) -> Int? { field(key).flatMap { s.int(in: $0) } }
        func uint(_ key: StaticString) -> UInt64? { field(key).flatMap { s.uint(in: $0) } }
        /// An optional number field: absent, `.some(nil)`; there but not a number, nil (no reply).
        func optionalInt(_ key: StaticString) -> Int?? {
            guard let range = field(key) else { return .some(nil) }
            guard let value = s.int(in: range) else { return nil }
            return .some(value)
        }
        /// The next positional word as text (nil when there is none).
        func word() -> String? {
            let w = s.word()
            return w.isEmpty ? nil : s.text(w)
        }
        func piece() -> Int? { s.int().flatMap { $0 >= 0 ? $0 : nil } }
        /// How many words follow the kind, fields included.
        let n = s.wordCount(from: args)

        if s.matches(kind, "hello") {
            guard let v = int("version"), let id = int("id"), let name = text("name") else { return nil }
            return .hello(version: v, player: PlayerID(id), name: name, token: text("token"))
        } else if s.matches(kind, "help") {
            return s.int().map { .help(count: $0) }
        } else if s.matches(kind, "rooms") {
            return s.int().map { .rooms(count: $0) }
        } else if s.matches(kind, "who") {
            return s.int().map { .who(count: $0) }
        } else if s.matches(kind, "history") {
            return s.int().map { .history(count: $0) }
        } else if s.matches(kind, "replay") {
            guard let puzzle = s.int(), let moves = s.int(), let more = optionalInt("more") else { return nil }
            return .replay(puzzle: puzzle, moves: moves, more: more)
        } else if s.matches(kind, "stats") {
            var fields: [ReplyField] = []
            while true {
                let w = s.word()
                if w.isEmpty { break }
                // A word that is not `key=value` (both non-empty) is no field.
                guard let eq = s.firstIndex(of: UInt8(ascii: "="), in: w), eq > w.lowerBound, eq + 1 < w.upperBound else { continue }
                fields.append(ReplyField(s.text(w.lowerBound..<eq), s.text(eq + 1..<w.upperBound)))
            }
            return .stats(fields)
        } else if s.matches(kind, "created") {
            if n == 1 { return word().map { .created(room: $0) } }
            guard n == 3, let room = word(), let size = text("size"), let asked = int("asked") else { return nil }
            let sides = size.split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, let rows = LineScanner.int(sides[0]), let cols = LineScanner.int(sides[1]) else { return nil }
            return .created(room: room, rows: rows, cols: cols, asked: asked)
        } else if s.matches(kind, "left") {
            return n == 1 ? word().map { .left(room: $0) } : nil
        } else if s.matches(kind, "watching") {
            guard n == 3, let room = word(), let seq = uint("seq"), let run = text("run") else { return nil }
            return .watching(room: room, seq: seq, run: run)
        } else if s.matches(kind, "joined") {
            guard (3...5).contains(n), let room = word(), let id = int("id"), let seq = uint("seq"),
                  let missed = optionalInt("missed") else { return nil }
            return .joined(room: room, player: PlayerID(id), seq: seq, run: text("run"), missed: missed)
        } else if s.matches(kind, "sync") {
            guard let seq = uint("seq"), let digest = text("digest"), let missed = optionalInt("missed") else { return nil }
            return .synced(seq: seq, digest: digest, run: text("run"), missed: missed)
        } else if s.matches(kind, "digest") {
            guard let seq = uint("seq"), let value = text("value"), let correct = int("correct"), let total = int("total"),
                  let held = int("held"), let puzzle = int("puzzle") else { return nil }
            return .digest(DigestSummary(seq: seq, value: value, correct: correct, total: total, held: held, puzzle: puzzle))
        } else if s.matches(kind, "picture") {
            guard n == 3, let w = s.int(), let h = s.int(), let hash = word() else { return nil }
            return .picture(width: w, height: h, hash: hash)
        } else if s.matches(kind, "layout") {
            guard n == 3, let pieces = s.int(), let puzzle = int("puzzle"), let seed = uint("seed") else { return nil }
            return .layout(pieces: pieces, puzzle: puzzle, seed: seed)
        } else if s.matches(kind, "grabbed") {
            return n == 1 ? piece().map { .grabbed(piece: $0) } : nil
        } else if s.matches(kind, "released") {
            return n == 1 ? piece().map { .released(piece: $0) } : nil
        } else if s.matches(kind, "events") {
            guard n == 1, let w = word(), w == "on" || w == "off" else { return nil }
            return .events(on: w == "on")
        } else if s.matches(kind, "pace") {
            guard n == 1, let ms = s.int(), (0...Request.maxPaceMillis).contains(ms) else { return nil }
            return .paced(millis: ms)
        } else if s.matches(kind, "kept") {
            guard n == 2, let p = piece(), let left = s.int(), left >= 0 else { return nil }
            return .kept(piece: p, leaseLeftMillis: Int64(left))
        } else if s.matches(kind, "dragged") {
            guard n == 4, let p = piece(), let x = s.int(), let y = s.int(), let t = s.target() else { return nil }
            return .dragged(piece: p, to: Point(x: x, y: y), target: t.valid ? Cell(row: t.row, col: t.col) : nil)
        } else if s.matches(kind, "rotated") {
            guard n == 2, let p = piece(), let r = s.int() else { return nil }
            return .rotated(piece: p, rotation: r)
        } else if s.matches(kind, "dropped") {
            guard let p = piece() else { return nil }
            let solved = s.hasSuffix(" solved")
            let words = n - 1 - (solved ? 1 : 0)
            let how = s.word()
            let outcome: DropOutcome
            if s.matches(how, "cell"), words == 3, let r = s.int(), let c = s.int() {
                outcome = .placed(Cell(row: r, col: c))
            } else if s.matches(how, "table"), words == 3, let x = s.int(), let y = s.int() {
                outcome = .onTable(Point(x: x, y: y))
            } else if s.matches(how, "swapped"), words == 4, s.matches(s.word(), "cell"), let r = s.int(), let c = s.int() {
                outcome = .swapped(Cell(row: r, col: c))
            } else if s.matches(how, "returned"), words == 1 {
                outcome = .returned
            } else {
                return nil
            }
            return .dropped(piece: p, outcome: outcome, solved: solved)
        } else if s.matches(kind, "hint") {
            return n == 1 ? s.int().map { .hint(millis: Int64($0)) } : nil
        } else if s.matches(kind, "next") {
            guard n == 3, let puzzle = s.int(), let puzzleKind = word().flatMap(PuzzleKind.init(rawValue:)),
                  let (rows, cols) = s.pair(UInt8(ascii: "x")) else { return nil }
            return .next(puzzle: puzzle, kind: puzzleKind, rows: rows, cols: cols)
        } else if s.matches(kind, "said") {
            return n == 0 ? .said : nil
        } else if s.matches(kind, "upload") {
            guard n == 3, let name = word(), let bytes = int("bytes"), let chars = int("line"), chars >= 4 else { return nil }
            return .uploadReady(name: name, bytes: bytes, lineCharacters: chars)
        } else if s.matches(kind, "uploaded") {
            guard n == 3, let name = word(), let (w, h) = s.pair(UInt8(ascii: "x")), let sha = text("sha256") else { return nil }
            return .uploaded(name: name, width: w, height: h, sha256: sha)
        } else if s.matches(kind, "bye") {
            return n == 0 ? .bye : nil
        }
        return nil
    }

    /// `ERR <code> <message>` after its `ERR`: the code (nil when there is
    /// none) and the message, everything after the code and its spaces.
    public static func error(_ s: inout LineScanner) -> ProtocolError? {
        let code = s.word()
        guard !code.isEmpty else { return nil }
        return ProtocolError(ErrorCode(rawValue: s.text(code)), rest(&s))
    }

    /// The rest of the line after the spaces at `s`: a PONG's token, an ERR's message.
    static func rest(_ s: inout LineScanner) -> String {
        s.skipSpaces()
        return s.text(s.position..<s.end)
    }
}
