import PuzzleCore

/// Writes and reads `StateRecord` lines. The encoder is the server's only way
/// to write them; the decoder is how the play client and the tests read them.
public enum StateRecordCodec {
    /// Appends the line for `record`, with its LF terminator.
    public static func encode(_ record: StateRecord, into out: inout [UInt8]) {
        func sp() { out.append(UInt8(ascii: " ")) }
        func num(_ v: Int) { sp(); out.append(decimal: v) }
        func word(_ s: String) { sp(); out.append(text: s) }
        func field(_ key: StaticString, _ value: Int) { sp(); out.append(ascii: key); out.append(UInt8(ascii: "=")); out.append(decimal: value) }
        func yesNo(_ key: StaticString, _ value: Bool, _ yes: StaticString, _ no: StaticString) {
            sp(); out.append(ascii: key); out.append(UInt8(ascii: "=")); out.append(ascii: value ? yes : no)
        }
        out.append(ascii: "S")
        switch record {
        case .help(let usage):
            out.append(ascii: " help"); word(usage)
        case .room(let r):
            out.append(ascii: " room"); word(r.name)
            out.append(ascii: " kind="); out.append(text: r.kind.rawValue)
            out.append(ascii: " size="); out.append(decimal: r.rows); out.append(UInt8(ascii: "x")); out.append(decimal: r.cols)
            yesNo("rotation", r.rotation, "on", "off")
            field("players", r.players)
            yesNo("password", r.password, "yes", "no")
            field("puzzle", r.puzzle)
            out.append(ascii: " progress="); out.append(decimal: r.correct); out.append(UInt8(ascii: "/")); out.append(decimal: r.total)
            field("watchers", r.watchers)
            if let seats = r.seats { field("seats", seats) }
            if r.solved { out.append(ascii: " solved") }
        case .whoPlayer(let id, let name, let moves, let holding):
            out.append(ascii: " who"); num(id.rawValue); word(name); field("moves", moves)
            out.append(ascii: " holding=")
            if holding.isEmpty { out.append(UInt8(ascii: "-")) }
            for (i, piece) in holding.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(decimal: piece)
            }
        case .whoWatcher(let id, let name):
            out.append(ascii: " who"); num(id.rawValue); word(name); out.append(ascii: " watching")
        case .watcher(let id, let name):
            out.append(ascii: " watcher"); num(id.rawValue); word(name)
        case .clock(let elapsed, let running):
            out.append(ascii: " clock"); sp(); out.append(decimal: Int(elapsed)); out.append(ascii: running ? " running" : " paused")
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The line for `record`, without its terminator (for logs and tests).
    public static func line(_ record: StateRecord) -> String {
        String(encodedLine: { encode(record, into: &$0) })
    }

    /// Reads a state line (without its terminator). Nil when it is not one of
    /// these records (a snapshot's or a replay's, say: their `S room` header
    /// has no `players=`) or does not read as one. Fields are found by key, so
    /// a field added later is passed over; a room line without `watchers=`
    /// reads as watched by none.
    public static func decode(_ line: Substring) -> StateRecord? {
        guard line.hasPrefix("S ") else { return nil }
        let body = line.dropFirst(2)
        let kind = body.prefix { $0 != " " }
        guard kind.endIndex < body.endIndex else { return nil }
        let rest = body[body.index(after: kind.endIndex)...]
        if kind == "help" { return rest.isEmpty ? nil : .help(usage: String(rest)) }
        let words = rest.split(separator: " ", omittingEmptySubsequences: false)
        var fields: [Substring: Substring] = [:]
        for w in words.dropFirst() {
            guard let eq = w.firstIndex(of: "=") else { continue }
            fields[w[..<eq]] = w[w.index(after: eq)...]
        }
        func int(_ key: Substring) -> Int? { fields[key].flatMap { LineScanner.int($0) } }
        func pair(_ key: Substring, _ separator: Character) -> (Int, Int)? {
            guard let v = fields[key] else { return nil }
            let parts = v.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 2, let a = LineScanner.int(parts[0]), let b = LineScanner.int(parts[1]) else { return nil }
            return (a, b)
        }
        func flag(_ key: Substring, _ yes: Substring, _ no: Substring) -> Bool? {
            switch fields[key] {
            case yes?: true
            case no?: false
            default: nil
            }
        }
        switch kind {
        case "room":
            guard let name = words.first, !name.isEmpty, !name.contains("="),
                  let k = fields["kind"], let kind = PuzzleKind(rawValue: String(k)), let size = pair("size", "x"),
                  let rotation = flag("rotation", "on", "off"), let players = int("players"),
                  let password = flag("password", "yes", "no"), let puzzle = int("puzzle"),
                  let progress = pair("progress", "/") else { return nil }
            return .room(RoomListing(name: String(name), kind: kind, rows: size.0, cols: size.1, rotation: rotation,
                                     players: players, password: password, puzzle: puzzle, correct: progress.0,
                                     total: progress.1, watchers: int("watchers") ?? 0, seats: int("seats"),
                                     solved: words.last == "solved"))
        case "who":
            guard words.count >= 3, let id = LineScanner.int(words[0]), !words[1].isEmpty else { return nil }
            let name = String(words[1])
            if words.count == 3, words[2] == "watching" { return .whoWatcher(id: PlayerID(id), name: name) }
            guard let moves = int("moves"), let held = fields["holding"] else { return nil }
            var holding: [Int] = []
            if held != "-" {
                for p in held.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let piece = LineScanner.int(p), piece >= 0 else { return nil }
                    holding.append(piece)
                }
            }
            return .whoPlayer(id: PlayerID(id), name: name, moves: moves, holding: holding)
        case "watcher":
            guard words.count == 2, let id = LineScanner.int(words[0]), !words[1].isEmpty else { return nil }
            return .watcher(id: PlayerID(id), name: String(words[1]))
        case "clock":
            guard words.count == 2, let elapsed = LineScanner.int(words[0]).map(Int64.init) else { return nil }
            switch words[1] {
            case "running": return .clock(elapsedMillis: elapsed, running: true)
            case "paused": return .clock(elapsedMillis: elapsed, running: false)
            default: return nil
            }
        default:
            return nil
        }
    }
}
