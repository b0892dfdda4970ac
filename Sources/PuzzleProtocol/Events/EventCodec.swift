import PuzzleCore

/// Encodes and decodes event lines. The server encodes each event once and
/// appends the same bytes to every member's output.
public enum EventCodec {
    /// Appends the line for `event`, with its LF terminator.
    @inlinable
    public static func encode<Sink: ByteSink>(_ event: RoomEvent, into out: inout Sink) {
        out.append(ascii: "EV ")
        out.append(decimal: event.seq)
        out.append(UInt8(ascii: " "))
        out.append(text: event.body.name)
        func sp(_ v: Int) { out.append(UInt8(ascii: " ")); out.append(decimal: v) }
        func target(_ c: Cell?) {
            if let c {
                sp(c.row); out.append(UInt8(ascii: ",")); out.append(decimal: c.col)
            } else {
                out.append(ascii: " -")
            }
        }
        switch event.body {
        case .joined(let p, let name): sp(p.rawValue); out.append(UInt8(ascii: " ")); out.append(text: name)
        case .left(let p): sp(p.rawValue)
        case .grabbed(let piece, let p): sp(piece); sp(p.rawValue)
        case .dragged(let piece, let p, let to, let t): sp(piece); sp(p.rawValue); sp(to.x); sp(to.y); target(t)
        case .rotated(let piece, let p, let rotation, let t): sp(piece); sp(p.rawValue); sp(rotation); target(t)
        case .placed(let piece, let p, let at, let rotation):
            sp(piece); sp(p.rawValue)
            switch at {
            case .board(let c): out.append(ascii: " cell"); sp(c.row); sp(c.col)
            case .table(let pt): out.append(ascii: " table"); sp(pt.x); sp(pt.y)
            }
            sp(rotation)
        case .swapped(let piece, let other, let p): sp(piece); sp(other); sp(p.rawValue)
        case .returned(let piece, let p, let reason):
            sp(piece); sp(p.rawValue)
            if reason == .left || reason == .noTarget { out.append(UInt8(ascii: " ")); out.append(text: reason.rawValue) }
        case .solved(let puzzle, let ms): sp(puzzle); sp(Int(ms))
        case .nextPuzzle(let puzzle, let spec):
            sp(puzzle)
            out.append(text: " \(spec.kind.rawValue) \(spec.rows)x\(spec.cols) \(spec.rotation ? "on" : "off") \(spec.picture)")
        case .hint(let p, let until): sp(p.rawValue); sp(Int(until - event.time))
        case .forgotten(let p): sp(p.rawValue)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The line for `event`, without its terminator (for logs and tests).
    public static func line(_ event: RoomEvent) -> String {
        String(encodedLine: { encode(event, into: &$0) })
    }

    /// The line for a chat message, with its terminator.
    public static func encodeSay(seq: UInt64, player: PlayerID, text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.append(ascii: "EV ")
        out.append(decimal: seq)
        out.append(ascii: " say ")
        out.append(decimal: player.rawValue)
        out.append(UInt8(ascii: " "))
        out.append(text: text)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// The line for a watcher coming (`name` given) or going, with its terminator.
    public static func encodeWatching(seq: UInt64, player: PlayerID, name: String?) -> [UInt8] {
        var out: [UInt8] = []
        out.append(ascii: "EV ")
        out.append(decimal: seq)
        out.append(ascii: name == nil ? " unwatching " : " watching ")
        out.append(decimal: player.rawValue)
        if let name {
            out.append(UInt8(ascii: " "))
            out.append(text: name)
        }
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Decodes an event line (without terminator). `now` is the receiver's room
    /// clock estimate, used as the event's time (the wire carries durations only).
    public static func decode(_ line: Substring, now: Int64 = 0) -> WireEvent? {
        let w = line.split(separator: " ", omittingEmptySubsequences: true)
        guard w.count >= 3, w[0] == "EV", let seq = UInt64(w[1]), seq <= RoomLimits.maxSeq else { return nil }
        func int(_ i: Int) -> Int? { i < w.count ? Int(w[i]) : nil }
        func pid(_ i: Int) -> PlayerID? { int(i).map(PlayerID.init) }
        func target(_ i: Int) -> Cell?? {
            guard i < w.count else { return nil }
            if w[i] == "-" { return .some(nil) }
            let rc = w[i].split(separator: ",")
            guard rc.count == 2, let r = Int(rc[0]), let c = Int(rc[1]) else { return nil }
            return .some(Cell(row: r, col: c))
        }
        let body: EventBody
        switch w[2] {
        case "watching":
            guard w.count == 5, let p = pid(3), NameRule.isValid(String(w[4])) else { return nil }
            return .watching(seq: seq, player: p, name: String(w[4]))
        case "unwatching":
            guard w.count == 4, let p = pid(3) else { return nil }
            return .unwatching(seq: seq, player: p)
        case "say":
            guard let p = pid(3) else { return nil }
            // The text is everything after the fourth word and its one separator,
            // spaces included, however the words before it were spaced.
            var text = line[...]
            for _ in 0..<4 { text = text.drop { $0 == " " }.drop { $0 != " " } }
            return .say(seq: seq, player: p, text: String(text.dropFirst()))
        case "joined":
            guard w.count == 5, let p = pid(3), NameRule.isValid(String(w[4])) else { return nil }
            body = .joined(p, name: String(w[4]))
        case "left":
            guard w.count == 4, let p = pid(3) else { return nil }
            body = .left(p)
        case "forgotten":
            guard w.count == 4, let p = pid(3) else { return nil }
            body = .forgotten(p)
        case "grabbed":
            guard w.count == 5, let piece = int(3), let p = pid(4) else { return nil }
            body = .grabbed(piece: piece, by: p)
        case "dragged":
            guard w.count == 8, let piece = int(3), let p = pid(4), let x = int(5), let y = int(6), let t = target(7) else { return nil }
            body = .dragged(piece: piece, by: p, to: Point(x: x, y: y), target: t)
        case "rotated":
            guard w.count == 7, let piece = int(3), let p = pid(4), let r = int(5), let t = target(6) else { return nil }
            body = .rotated(piece: piece, by: p, rotation: r, target: t)
        case "placed":
            guard w.count == 9, let piece = int(3), let p = pid(4), let a = int(6), let b = int(7), let r = int(8) else { return nil }
            switch w[5] {
            case "cell": body = .placed(piece: piece, by: p, at: .board(Cell(row: a, col: b)), rotation: r)
            case "table": body = .placed(piece: piece, by: p, at: .table(Point(x: a, y: b)), rotation: r)
            default: return nil
            }
        case "swapped":
            guard w.count == 6, let piece = int(3), let other = int(4), let p = pid(5) else { return nil }
            body = .swapped(piece: piece, other: other, by: p)
        case "released", "expired", "returned":
            guard w.count >= 5, let piece = int(3), let p = pid(4) else { return nil }
            let reason: ReturnReason
            switch w[2] {
            case "released" where w.count == 5: reason = .released
            case "expired" where w.count == 5: reason = .expired
            case "released", "expired": return nil
            default:
                guard w.count == 6, let r = ReturnReason(rawValue: String(w[5])) else { return nil }
                reason = r
            }
            body = .returned(piece: piece, by: p, reason: reason)
        case "solved":
            guard w.count == 5, let puzzle = int(3), (0...RoomLimits.maxPuzzleIndex).contains(puzzle), let ms = int(4),
                  (0...RoomLimits.maxDurationMillis).contains(Int64(ms)) else { return nil }
            body = .solved(puzzle: puzzle, elapsedMillis: Int64(ms))
        case "next":
            // A negative index would trap when the receiver builds the puzzle from it.
            guard w.count == 8, let puzzle = int(3), (0...RoomLimits.maxPuzzleIndex).contains(puzzle), let kind = PuzzleKind(rawValue: String(w[4])) else { return nil }
            let size = w[5].split(separator: "x")
            guard size.count == 2, let rows = Int(size[0]), let cols = Int(size[1]),
                  let spec = try? PuzzleSpec(kind: kind, rows: rows, cols: cols, rotation: w[6] == "on", picture: String(w[7]))
            else { return nil }
            body = .nextPuzzle(puzzle: puzzle, spec: spec)
        case "hint":
            guard w.count == 5, let p = pid(3), let ms = int(4), (0...RoomLimits.maxDurationMillis).contains(Int64(ms)) else { return nil }
            let (until, overflow) = now.addingReportingOverflow(Int64(ms))
            guard !overflow else { return nil }
            body = .hint(by: p, untilMillis: until)
        default:
            return nil
        }
        return .room(RoomEvent(seq: seq, time: now, body: body))
    }
}
