import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension LoadTest {
    /// Reads what a bot's socket has (a bounded number of reads, for fairness
    /// between bots) and handles every complete line in place.
    func receive(_ bot: BenchBot) {
        for _ in 0..<4 {
            let result: IOResult
            do { result = try bot.socket.receive(into: readBuffer) } catch {
                return disconnected(bot, why: "receive failed: \(error)")
            }
            switch result {
            case .wouldBlock: return
            case .processed(0): return disconnected(bot, why: "server closed the connection")
            case .processed(let n):
                split(bot, UnsafeRawBufferPointer(rebasing: readBuffer[..<n]))
                if n < readBuffer.count || !bot.connected { return }
            }
        }
    }

    /// Handles each LF-terminated line of `bytes`, joining the first one to
    /// the bot's carried partial line and carrying the last partial one.
    private func split(_ bot: BenchBot, _ bytes: UnsafeRawBufferPointer) {
        var start = 0
        let count = bytes.count
        if !bot.carry.isEmpty {
            guard let lf = firstLF(bytes, from: 0) else { bot.carry.append(contentsOf: bytes); return }
            bot.carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<lf]))
            let line = bot.carry
            bot.carry.removeAll(keepingCapacity: true)
            line.withUnsafeBytes { handle(bot, line: $0) }
            start = lf + 1
        }
        while start < count, let lf = firstLF(bytes, from: start) {
            if lf > start { handle(bot, line: UnsafeRawBufferPointer(rebasing: bytes[start..<lf])) }
            start = lf + 1
        }
        if start < count { bot.carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...])) }
    }

    @inline(__always)
    private func firstLF(_ bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        var i = from
        let n = bytes.count
        while i < n {
            if bytes[i] == 0x0A { return i }
            i += 1
        }
        return nil
    }

    /// Dispatches one server line (without its LF).
    func handle(_ bot: BenchBot, line raw: UnsafeRawBufferPointer) {
        var line = raw
        if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        guard line.count >= 2, bot.connected else { return }
        switch line[0] {
        case UInt8(ascii: "E") where line[1] == UInt8(ascii: "V"):
            event(bot, LineScanner(line))
        case UInt8(ascii: "S") where line[1] == 0x20:
            bot.stateLines.append(contentsOf: line)
            bot.stateLines.append(0x0A)
        case UInt8(ascii: "O"), UInt8(ascii: "E"), UInt8(ascii: "P"):
            reply(bot, LineScanner(line))
        case UInt8(ascii: "B"):
            let text = LineScanner(line).string
            failures.note("bot\(bot.index): \(text)")
            disconnected(bot, why: text)
        default:
            failures.mirrorErrors += 1
            failures.note("bot\(bot.index): unexpected line '\(LineScanner(line).string.prefix(80))'")
        }
    }

    // MARK: - Events

    private func event(_ bot: BenchBot, _ line: LineScanner) {
        var s = line
        _ = s.word()
        guard let seqValue = s.int(), seqValue >= 0 else { return badEvent(bot, line) }
        let seq = UInt64(seqValue)
        let name = s.word()
        if s.matches(name, "dragged") {
            guard let piece = s.int(), let id = s.int(), let x = s.int(), let y = s.int() else { return badEvent(bot, line) }
            // A drag carries the current number: a higher one means a missed event.
            if seq > bot.lastSeq {
                failures.eventGaps += 1
                failures.note("bot\(bot.index): drag at seq \(seq) after seq \(bot.lastSeq)")
            }
            guard id != bot.player else { return }
            total.deliveries += 1
            if inWindow(now) { window.deliveries += 1 }
            if let sender = botPlaying(id), let sent = sender.intendedTime(piece: piece, x: x, y: y), inWindow(sent) {
                broadcastLatency.record(now > sent ? (now - sent) / 1000 : 0)
            }
            return
        }
        if s.matches(name, "say") { return }
        guard var mirror = bot.mirror else { return badEvent(bot, line) }
        guard seq == bot.lastSeq + 1 else {
            failures.eventGaps += 1
            failures.note("bot\(bot.index): event seq \(seq) after seq \(bot.lastSeq)")
            return
        }
        guard let body = fastBody(name, &s) ?? slowBody(line) else { return badEvent(bot, line) }
        bot.mirror = nil  // keep the mirror uniquely referenced while it changes
        do {
            try mirror.apply(RoomEvent(seq: seq, time: clockMillis, body: body))
        } catch {
            failures.mirrorErrors += 1
            failures.note("bot\(bot.index): cannot apply '\(line.string)': \(error)")
        }
        bot.mirror = mirror
        bot.lastSeq = seq
        switch body {
        case .solved(let puzzle, let ms):
            let room = rooms[bot.room]
            if puzzle > room.lastSolved {
                room.lastSolved = puzzle
                room.solveMillis.append(ms)
            }
            if bot.phase == .holding {
                total.lostHolds += 1
                endCycle(bot)
                bot.phase = .waitingForPuzzle
            } else if bot.phase == .idle {
                bot.phase = .waitingForPuzzle
            }
        case .nextPuzzle:
            rooms[bot.room].claimed.removeAll()
            if bot.phase == .waitingForPuzzle { startCycle(bot) }
        default:
            break
        }
    }

    /// The common events, parsed without building strings.
    private func fastBody(_ name: Range<Int>, _ s: inout LineScanner) -> EventBody? {
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
    private func slowBody(_ line: LineScanner) -> EventBody? {
        guard case .room(let e)? = EventCodec.decode(Substring(line.string), now: clockMillis) else { return nil }
        return e.body
    }

    private func badEvent(_ bot: BenchBot, _ line: LineScanner) {
        failures.mirrorErrors += 1
        failures.note("bot\(bot.index): bad event '\(line.string.prefix(80))'")
    }
}
