import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension LoadTest {
    /// Reads what a bot's socket has (a bounded number of reads, for fairness
    /// between bots) and handles every complete line in place. A partial line
    /// carried from the last read is put in front of the new bytes, so every
    /// line is contiguous in the read buffer and nothing else is copied.
    func receive(_ bot: BenchBot) {
        let buffer = readBuffer
        for _ in 0..<4 {
            let carried = bot.carry.count
            guard carried < buffer.count / 2 else {
                failures.mirrorErrors += 1
                return disconnected(bot, why: "a line longer than \(carried) bytes")
            }
            if carried > 0 {
                bot.carry.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: carried) }
            }
            let space = UnsafeMutableRawBufferPointer(rebasing: buffer[carried...])
            let result: IOResult
            do { result = try bot.socket.receive(into: space) } catch {
                return disconnected(bot, why: "receive failed: \(error)")
            }
            switch result {
            case .wouldBlock: return
            case .processed(0): return disconnected(bot, why: "server closed the connection")
            case .processed(let n):
                if carried > 0 { bot.carry.removeAll(keepingCapacity: true) }
                split(bot, UnsafeRawBufferPointer(rebasing: buffer[..<(carried + n)]))
                if n < space.count || !bot.connected { return }
            }
        }
    }

    /// Handles each LF-terminated line of `bytes`; carries the last partial one.
    private func split(_ bot: BenchBot, _ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while let lf = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) {
            if lf > start { handle(bot, line: UnsafeRawBufferPointer(rebasing: bytes[start..<lf])) }
            start = lf + 1
            if !bot.connected { return }
        }
        if start < bytes.count { bot.carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...])) }
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

    /// "dragged " as a little-endian 64-bit word.
    static var draggedWord: UInt64 { 0x2064_6567_6761_7264 }

    private func event(_ bot: BenchBot, _ line: LineScanner) {
        var s = line
        s.position = 3  // "EV "
        guard let seqValue = s.int(), seqValue >= 0 else { return badEvent(bot, line) }
        let seq = UInt64(seqValue)
        // Nearly every line is a drag: recognise " dragged " in one 8-byte compare.
        if s.position + 9 <= s.end && UnsafeRawPointer(s.base + s.position + 1).loadUnaligned(as: UInt64.self) == Self.draggedWord {
            s.position += 9
            return dragged(bot, seq: seq, s, line)
        }
        let name = s.word()
        if s.matches(name, "dragged") { return dragged(bot, seq: seq, s, line) }
        if s.matches(name, "say") { return }
        sequenced(bot, seq: seq, line: line)
    }

    /// The bulk of the traffic: another member's drag. Counted, and timed
    /// from the sender's intended send time of that step.
    @inline(__always)
    private func dragged(_ bot: BenchBot, seq: UInt64, _ scanner: LineScanner, _ line: LineScanner) {
        var s = scanner
        guard let piece = s.int(), let id = s.int(), let x = s.int(), let y = s.int() else { return badEvent(bot, line) }
        // A drag carries the current number: a higher one means a missed event.
        if seq > bot.lastSeq {
            failures.eventGaps += 1
            failures.note("bot\(bot.index): drag at seq \(seq) after seq \(bot.lastSeq)")
        }
        guard id != bot.player else { return }
        let t = now
        total.deliveries += 1
        if inWindow(t) { window.deliveries += 1 }
        let i = id &- playerBase
        guard i >= 0 && i < botByPlayer.count else { return }
        let b = botByPlayer[i]
        guard b >= 0, let sent = paths.intendedTime(bot: Int(b), piece: piece, x: x, y: y), inWindow(sent) else { return }
        broadcastLatency.record(t > sent ? (t &- sent) / 1000 : 0)
    }
}
