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
        case .joined(let p, let name, let color):
            sp(p.rawValue); out.append(UInt8(ascii: " ")); out.append(text: name)
            if let color { out.append(ascii: " color="); out.append(decimal: color) }
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
        case .merged(let piece, let other, let p): sp(piece); sp(other); sp(p.rawValue)
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
        var line = line
        return line.withUTF8 { decode(UnsafeRawBufferPointer($0), now: now) }
    }

    /// Decodes an event line from its bytes (without terminator), where it
    /// lies: the one reader of events, for the play client, the server's
    /// journal and the bench. The grammar is PROTOCOL.md's: words separated
    /// by one or more spaces, each event with exactly its words; numbers an
    /// optional `-` and digits (no `+`), the sequence number digits only, up
    /// to `RoomLimits.maxSeq`; a target `r,c` or `-`, a size `RxC`, rotation
    /// `on` or `off`.
    public static func decode(_ line: UnsafeRawBufferPointer, now: Int64 = 0) -> WireEvent? {
        guard !line.isEmpty else { return nil }
        var s = LineScanner(line)
        guard s.matches(s.word(), "EV"), let seq = s.uint(), seq <= RoomLimits.maxSeq else { return nil }
        let name = s.word()
        /// A player id, then the end of the line.
        func lastPlayer() -> PlayerID? {
            guard let p = s.int(), s.atLineEnd() else { return nil }
            return PlayerID(p)
        }
        /// A name (`joined`, `watching`) as the last word.
        func lastName() -> String? {
            let word = s.word()
            guard !word.isEmpty, s.atLineEnd() else { return nil }
            let name = s.text(word)
            return NameRule.isValid(name) ? name : nil
        }
        let body: EventBody
        if s.matches(name, "dragged") {
            guard let piece = s.int(), let p = s.int(), let x = s.int(), let y = s.int(), let t = s.target(), s.atLineEnd() else { return nil }
            body = .dragged(piece: piece, by: PlayerID(p), to: Point(x: x, y: y), target: t.valid ? Cell(row: t.row, col: t.col) : nil)
        } else if s.matches(name, "grabbed") {
            guard let piece = s.int(), let p = lastPlayer() else { return nil }
            body = .grabbed(piece: piece, by: p)
        } else if s.matches(name, "placed") {
            guard let piece = s.int(), let p = s.int() else { return nil }
            let place = s.word()
            guard let a = s.int(), let b = s.int(), let r = s.int(), s.atLineEnd() else { return nil }
            if s.matches(place, "cell") {
                body = .placed(piece: piece, by: PlayerID(p), at: .board(Cell(row: a, col: b)), rotation: r)
            } else if s.matches(place, "table") {
                body = .placed(piece: piece, by: PlayerID(p), at: .table(Point(x: a, y: b)), rotation: r)
            } else {
                return nil
            }
        } else if s.matches(name, "rotated") {
            guard let piece = s.int(), let p = s.int(), let r = s.int(), let t = s.target(), s.atLineEnd() else { return nil }
            body = .rotated(piece: piece, by: PlayerID(p), rotation: r, target: t.valid ? Cell(row: t.row, col: t.col) : nil)
        } else if s.matches(name, "swapped") {
            guard let piece = s.int(), let other = s.int(), let p = lastPlayer() else { return nil }
            body = .swapped(piece: piece, other: other, by: p)
        } else if s.matches(name, "merged") {
            guard let piece = s.int(), let other = s.int(), let p = lastPlayer() else { return nil }
            body = .merged(piece: piece, other: other, by: p)
        } else if s.matches(name, "released") || s.matches(name, "expired") {
            guard let piece = s.int(), let p = lastPlayer() else { return nil }
            body = .returned(piece: piece, by: p, reason: s.matches(name, "released") ? .released : .expired)
        } else if s.matches(name, "returned") {
            guard let piece = s.int(), let p = s.int() else { return nil }
            let word = s.word()
            guard s.atLineEnd(), let reason = ReturnReason(rawValue: s.text(word)) else { return nil }
            body = .returned(piece: piece, by: PlayerID(p), reason: reason)
        } else if s.matches(name, "say") {
            guard let p = s.int() else { return nil }
            // The text is everything after the id and its one separator, spaces included.
            if !s.atEnd { s.position += 1 }
            return .say(seq: seq, player: PlayerID(p), text: s.text(s.position..<s.end))
        } else if s.matches(name, "joined") {
            // `joined <id> <name> [color=<slot>]`: the slot only when it is
            // not the lowest free one (see *Colour slots*).
            guard let p = s.int() else { return nil }
            let word = s.word()
            guard !word.isEmpty, NameRule.isValid(s.text(word)) else { return nil }
            var color: Int?
            if !s.atLineEnd() {
                let tail = s.text(s.word())
                guard tail.hasPrefix("color="), let slot = LineScanner.int(tail.dropFirst(6)[...]),
                      RoomLimits.colorSlots.contains(slot), s.atLineEnd() else { return nil }
                color = slot
            }
            body = .joined(PlayerID(p), name: s.text(word), color: color)
        } else if s.matches(name, "left") {
            guard let p = lastPlayer() else { return nil }
            body = .left(p)
        } else if s.matches(name, "forgotten") {
            guard let p = lastPlayer() else { return nil }
            body = .forgotten(p)
        } else if s.matches(name, "watching") {
            guard let p = s.int(), let name = lastName() else { return nil }
            return .watching(seq: seq, player: PlayerID(p), name: name)
        } else if s.matches(name, "unwatching") {
            guard let p = lastPlayer() else { return nil }
            return .unwatching(seq: seq, player: p)
        } else if s.matches(name, "solved") {
            guard let puzzle = s.int(), (0...RoomLimits.maxPuzzleIndex).contains(puzzle), let ms = s.int(),
                  (0...RoomLimits.maxDurationMillis).contains(Int64(ms)), s.atLineEnd() else { return nil }
            body = .solved(puzzle: puzzle, elapsedMillis: Int64(ms))
        } else if s.matches(name, "next") {
            // A negative index would trap when the receiver builds the puzzle from it.
            guard let puzzle = s.int(), (0...RoomLimits.maxPuzzleIndex).contains(puzzle) else { return nil }
            let kindWord = s.word()
            guard let kind = PuzzleKind(rawValue: s.text(kindWord)), let (rows, cols) = s.pair(UInt8(ascii: "x")) else { return nil }
            let rotation = s.word()
            let picture = s.word()
            guard s.matches(rotation, "on") || s.matches(rotation, "off"), !picture.isEmpty, s.atLineEnd(),
                  let spec = try? PuzzleSpec(kind: kind, rows: rows, cols: cols, rotation: s.matches(rotation, "on"), picture: s.text(picture))
            else { return nil }
            body = .nextPuzzle(puzzle: puzzle, spec: spec)
        } else if s.matches(name, "hint") {
            guard let p = s.int(), let ms = s.int(), (0...RoomLimits.maxDurationMillis).contains(Int64(ms)), s.atLineEnd() else { return nil }
            let (until, overflow) = now.addingReportingOverflow(Int64(ms))
            guard !overflow else { return nil }
            body = .hint(by: PlayerID(p), untilMillis: until)
        } else {
            return nil
        }
        return .room(RoomEvent(seq: seq, time: now, body: body))
    }
}
