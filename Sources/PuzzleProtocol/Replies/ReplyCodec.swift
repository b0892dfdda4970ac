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
        case .created(let room): out.append(ascii: " created"); word(room)
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
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let head = words.first else { return nil }
        if head == "PONG" {
            return .pong(token: String(line.dropFirst(4).drop { $0 == " " }))
        }
        if head == "ERR" {
            guard words.count >= 2, !words[1].isEmpty else { return nil }
            let message = words.count > 2 ? line[words[2].startIndex...] : ""
            return .error(ProtocolError(ErrorCode(rawValue: String(words[1])), String(message)))
        }
        guard head == "OK", words.count >= 2 else { return nil }
        let args = Array(words.dropFirst(2))
        func int(_ i: Int) -> Int? { i < args.count ? Int(args[i]) : nil }
        func piece(_ i: Int) -> Int? { int(i).flatMap { $0 >= 0 ? $0 : nil } }
        var fields: [Substring: Substring] = [:]
        for a in args {
            let kv = a.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { fields[kv[0]] = kv[1] }
        }
        switch words[1] {
        case "hello":
            guard let v = fields["version"].flatMap({ Int($0) }), let id = fields["id"].flatMap({ Int($0) }),
                  let name = fields["name"] else { return nil }
            return .hello(version: v, player: PlayerID(id), name: String(name), token: fields["token"].map(String.init))
        case "help": return int(0).map { .help(count: $0) }
        case "rooms": return int(0).map { .rooms(count: $0) }
        case "who": return int(0).map { .who(count: $0) }
        case "history": return int(0).map { .history(count: $0) }
        case "replay":
            guard let puzzle = int(0), let moves = int(1) else { return nil }
            return .replay(puzzle: puzzle, moves: moves, more: fields["more"].flatMap { Int($0) })
        case "stats":
            return .stats(args.compactMap { a in
                let kv = a.split(separator: "=", maxSplits: 1)
                return kv.count == 2 ? ReplyField(String(kv[0]), String(kv[1])) : nil
            })
        case "created": return args.count == 1 ? .created(room: String(args[0])) : nil
        case "left": return args.count == 1 ? .left(room: String(args[0])) : nil
        case "watching":
            guard args.count == 3, let seq = fields["seq"].flatMap({ UInt64($0) }), let run = fields["run"] else { return nil }
            return .watching(room: String(args[0]), seq: seq, run: String(run))
        case "joined":
            guard (3...5).contains(args.count), let id = fields["id"].flatMap({ Int($0) }), let seq = fields["seq"].flatMap({ UInt64($0) }) else { return nil }
            let missed = fields["missed"].flatMap { Int($0) }
            return .joined(room: String(args[0]), player: PlayerID(id), seq: seq, run: fields["run"].map(String.init), missed: missed)
        case "sync":
            guard let seq = fields["seq"].flatMap({ UInt64($0) }), let d = fields["digest"] else { return nil }
            return .synced(seq: seq, digest: String(d), run: fields["run"].map(String.init), missed: fields["missed"].flatMap { Int($0) })
        case "digest":
            guard let seq = fields["seq"].flatMap({ UInt64($0) }), let value = fields["value"],
                  let correct = fields["correct"].flatMap({ Int($0) }), let total = fields["total"].flatMap({ Int($0) }),
                  let held = fields["held"].flatMap({ Int($0) }), let puzzle = fields["puzzle"].flatMap({ Int($0) }) else { return nil }
            return .digest(DigestSummary(seq: seq, value: String(value), correct: correct, total: total, held: held, puzzle: puzzle))
        case "picture":
            guard args.count == 3, let w = int(0), let h = int(1) else { return nil }
            return .picture(width: w, height: h, hash: String(args[2]))
        case "layout":
            guard args.count == 3, let n = int(0), let puzzle = fields["puzzle"].flatMap({ Int($0) }),
                  let seed = fields["seed"].flatMap({ UInt64($0) }) else { return nil }
            return .layout(pieces: n, puzzle: puzzle, seed: seed)
        case "grabbed": return args.count == 1 ? piece(0).map { .grabbed(piece: $0) } : nil
        case "released": return args.count == 1 ? piece(0).map { .released(piece: $0) } : nil
        case "kept":
            guard args.count == 2, let p = piece(0), let left = int(1), left >= 0 else { return nil }
            return .kept(piece: p, leaseLeftMillis: Int64(left))
        case "dragged":
            guard args.count == 4, let p = piece(0), let x = int(1), let y = int(2) else { return nil }
            if args[3] == "-" { return .dragged(piece: p, to: Point(x: x, y: y), target: nil) }
            let rc = args[3].split(separator: ",")
            guard rc.count == 2, let r = Int(rc[0]), let c = Int(rc[1]) else { return nil }
            return .dragged(piece: p, to: Point(x: x, y: y), target: Cell(row: r, col: c))
        case "rotated":
            guard args.count == 2, let p = piece(0), let r = int(1) else { return nil }
            return .rotated(piece: p, rotation: r)
        case "dropped":
            guard let p = piece(0) else { return nil }
            var rest = args.dropFirst()
            let solved = rest.last == "solved"
            if solved { rest = rest.dropLast() }
            let w = Array(rest)
            let outcome: DropOutcome
            switch (w.first, w.count) {
            case ("cell", 3):
                guard let r = Int(w[1]), let c = Int(w[2]) else { return nil }
                outcome = .placed(Cell(row: r, col: c))
            case ("table", 3):
                guard let x = Int(w[1]), let y = Int(w[2]) else { return nil }
                outcome = .onTable(Point(x: x, y: y))
            case ("swapped", 4):
                guard w[1] == "cell", let r = Int(w[2]), let c = Int(w[3]) else { return nil }
                outcome = .swapped(Cell(row: r, col: c))
            case ("returned", 1):
                outcome = .returned
            default:
                return nil
            }
            return .dropped(piece: p, outcome: outcome, solved: solved)
        case "hint": return args.count == 1 ? int(0).map { .hint(millis: Int64($0)) } : nil
        case "next":
            guard args.count == 3, let puzzle = int(0), let kind = PuzzleKind(rawValue: String(args[1])) else { return nil }
            let size = args[2].split(separator: "x")
            guard size.count == 2, let rows = Int(size[0]), let cols = Int(size[1]) else { return nil }
            return .next(puzzle: puzzle, kind: kind, rows: rows, cols: cols)
        case "said": return args.isEmpty ? .said : nil
        case "upload":
            guard args.count == 3, let bytes = fields["bytes"].flatMap({ Int($0) }), let chars = fields["line"].flatMap({ Int($0) }),
                  chars >= 4 else { return nil }
            return .uploadReady(name: String(args[0]), bytes: bytes, lineCharacters: chars)
        case "uploaded":
            guard args.count == 3, let sha = fields["sha256"] else { return nil }
            let size = args[1].split(separator: "x")
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]) else { return nil }
            return .uploaded(name: String(args[0]), width: w, height: h, sha256: String(sha))
        case "bye": return args.isEmpty ? .bye : nil
        default: return nil
        }
    }
}
