import PuzzleCore
import PuzzleProtocol

/// The room-level mirror: one reference per room, applied once per event,
/// and the checks that prove each bot's view equal to it (see `BenchRoom`).
extension LoadTest {
    /// A sequenced event line (anything but a drag or chat) received by `bot`.
    func sequenced(_ bot: BenchBot, seq: UInt64, line: LineScanner) {
        guard bot.phase != .joining else { return badEvent(bot, line) }
        guard seq == bot.lastSeq + 1 else {
            failures.eventGaps += 1
            failures.note("bot\(bot.index): event seq \(seq) after seq \(bot.lastSeq)")
            return
        }
        bot.lastSeq = seq
        let room = rooms[bot.room]
        let i = Int(seq)
        guard room.recordLine(seq: i, hash: lineHash(line.base, line.end)) else {
            viewMismatches += 1
            failures.note("bot\(bot.index): event line for seq \(seq) differs from another member's: '\(line.string.prefix(80))'")
            return
        }
        guard !room.broken, room.referenceSeq >= 0 else { return }
        let next = room.referenceSeq + 1
        if i >= next && (room.joining || i > next) && room.storedLines[seq] == nil {
            room.storedLines[seq] = Array(UnsafeBufferPointer(start: line.base, count: line.end))
        }
        if i == next {
            advance(room, line)
            drainStored(room)
        }
    }

    /// `bot` joined with `state` (its decoded JOIN snapshot): seeds the room's
    /// reference, or compares digests at the snapshot's seq (now, or once the
    /// reference gets there). A snapshot older than the reference's start
    /// restarts the reference from it; the abandoned start is re-checked.
    func snapshotJoined(_ bot: BenchBot, state: RoomState) {
        let room = rooms[bot.room]
        let seq = state.seq
        bot.lastSeq = seq
        guard !room.broken else { return }
        let digest = state.digest
        guard room.referenceSeq >= 0 else {
            room.setReference(state)
            room.digests[seq] = digest
            drainStored(room)
            return
        }
        if seq > UInt64(room.referenceSeq) {
            room.pendingSnapshots[seq, default: []].append((bot.index, digest))
        } else if let d = room.digests[seq] {
            compareSnapshot(room, bot: bot.index, seq: seq, snapshot: digest, reference: d)
        } else {
            for (k, d) in room.digests { room.pendingSnapshots[k, default: []].append((-1, d)) }
            room.digests = [seq: digest]
            room.setReference(state)
            drainStored(room)
        }
    }

    private func compareSnapshot(_ room: BenchRoom, bot: Int, seq: UInt64, snapshot: StateDigest, reference: StateDigest) {
        guard snapshot != reference else { return }
        viewMismatches += 1
        let who = bot < 0 ? "an earlier snapshot" : "bot\(bot)'s JOIN snapshot"
        failures.note("\(room.name): \(who) at seq \(seq) has digest \(snapshot), the room's mirror \(reference)")
    }

    /// Applies stored lines that now follow the reference.
    private func drainStored(_ room: BenchRoom) {
        while !room.broken, room.referenceSeq >= 0, case let seq = UInt64(room.referenceSeq + 1), let bytes = room.storedLines[seq] {
            if !room.joining { room.storedLines[seq] = nil }
            bytes.withUnsafeBytes { advance(room, LineScanner($0)) }
        }
    }

    /// Applies one sequenced event line to the room's reference (its seq is
    /// the reference's next), then what it means for the room's bots.
    private func advance(_ room: BenchRoom, _ line: LineScanner) {
        var s = line
        _ = s.word()
        guard let seqValue = s.int() else { return breakReference(room, line, "no seq") }
        let seq = UInt64(seqValue)
        let name = s.word()
        guard let body = fastBody(name, &s) ?? slowBody(line) else { return breakReference(room, line, "cannot parse") }
        do {
            try room.apply(RoomEvent(seq: seq, time: clockMillis, body: body))
        } catch {
            return breakReference(room, line, "\(error)")
        }
        if room.joining, let digest = room.withReference({ $0.digest }) {
            room.digests[seq] = digest
            if let waiting = room.pendingSnapshots.removeValue(forKey: seq) {
                for w in waiting { compareSnapshot(room, bot: w.bot, seq: seq, snapshot: w.digest, reference: digest) }
            }
        }
        switch body {
        case .solved(let puzzle, let ms):
            if puzzle > room.lastSolved {
                room.lastSolved = puzzle
                room.solveMillis.append(ms)
            }
            // The solve ended every hold in the room, whether or not its
            // holder has read the event yet.
            for m in room.members {
                let bot = bots[m]
                if bot.phase == .holding {
                    total.lostHolds += 1
                    endCycle(bot)
                    bot.phase = .waitingForPuzzle
                } else if bot.phase == .idle {
                    bot.phase = .waitingForPuzzle
                }
            }
        case .nextPuzzle:
            room.claimed.removeAll()
            for m in room.members where bots[m].phase == .waitingForPuzzle { startCycle(bots[m]) }
        default:
            break
        }
    }

    private func breakReference(_ room: BenchRoom, _ line: LineScanner, _ why: String) {
        room.broken = true
        room.setReference(nil)
        room.storedLines = [:]
        failures.mirrorErrors += 1
        failures.note("\(room.name): cannot apply '\(line.string.prefix(80))': \(why)")
    }

    /// The common events, parsed without building strings.
    func fastBody(_ name: Range<Int>, _ s: inout LineScanner) -> EventBody? {
        if s.matches(name, "grabbed") {
            guard let piece = s.int(), let id = s.int() else { return nil }
            return .grabbed(piece: piece, by: PlayerID(id))
        }
        if s.matches(name, "placed") {
            guard let piece = s.int(), let id = s.int() else { return nil }
            let place = s.word()
            guard let a = s.int(), let b = s.int(), let rotation = s.int() else { return nil }
            if s.matches(place, "cell") { return .placed(piece: piece, by: PlayerID(id), at: .board(Cell(row: a, col: b)), rotation: rotation) }
            if s.matches(place, "table") { return .placed(piece: piece, by: PlayerID(id), at: .table(Point(x: a, y: b)), rotation: rotation) }
            return nil
        }
        if s.matches(name, "swapped") {
            guard let piece = s.int(), let other = s.int(), let id = s.int() else { return nil }
            return .swapped(piece: piece, other: other, by: PlayerID(id))
        }
        if s.matches(name, "released") {
            guard let piece = s.int(), let id = s.int() else { return nil }
            return .returned(piece: piece, by: PlayerID(id), reason: .released)
        }
        return nil
    }

    /// Any other event, through the protocol's own decoder.
    func slowBody(_ line: LineScanner) -> EventBody? {
        guard case .room(let e)? = EventCodec.decode(Substring(line.string), now: clockMillis) else { return nil }
        return e.body
    }

    func badEvent(_ bot: BenchBot, _ line: LineScanner) {
        failures.mirrorErrors += 1
        failures.note("bot\(bot.index): bad event '\(line.string.prefix(80))'")
    }
}
