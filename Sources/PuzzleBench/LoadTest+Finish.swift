import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension LoadTest {
    /// Stops sending drags, lets every bot drop what it holds, waits until
    /// every request has its reply, then has every bot compare its mirror with
    /// the server's DIGEST.
    func finish() throws {
        stopping = true
        heap.removeAll()
        for bot in bots {
            skip(bot.forgetOwed())
            switch bot.phase {
            case .holding:
                drop(bot)
                bot.phase = .finished
            case .grabbing:
                break  // its reply drops or finishes it
            default:
                bot.phase = .finished
            }
        }
        flushDirty()
        let deadline = MonotonicClock.nowNanoseconds + UInt64(options.settleSeconds * 1e9)
        func busy() -> Int {
            bots.reduce(0) { $0 + ($1.connected && ($1.inFlight > 0 || $1.hasUnsentOutput || $1.phase == .grabbing) ? 1 : 0) }
        }
        while busy() > 0 {
            guard MonotonicClock.nowNanoseconds < deadline else {
                failures.note("not quiescent after \(options.settleSeconds) s: \(busy()) bot(s) still waiting for replies")
                failures.mirrorErrors += 1
                return
            }
            try turn(timeoutMillis: 10)
        }
        for bot in bots where bot.connected {
            bot.sendLine("DIGEST")
            bot.expect(.digest, intended: now)
            markDirty(bot)
        }
        flushDirty()
        while bots.contains(where: { $0.connected && !$0.checked }) {
            guard MonotonicClock.nowNanoseconds < deadline else {
                failures.note("DIGEST replies missing after \(options.settleSeconds) s")
                failures.mirrorErrors += 1
                return
            }
            try turn(timeoutMillis: 10)
        }
        checkPieces()
    }

    /// `OK digest seq=<n> value=<hex16> correct=<c> total=<t> held=<h> puzzle=<i>`
    /// against the bot's room's reference mirror: the bot has followed the
    /// stream to the server's seq, the reference is there too with the same
    /// digest, and no hold is left.
    func checkDigest(_ bot: BenchBot, _ rest: LineScanner) {
        bot.checked = true
        let room = rooms[bot.room]
        guard case .digest(let server)? = ReplyCodec.decode(Substring(rest.string)) else {
            digestMismatches += 1
            failures.note("bot\(bot.index): bad DIGEST reply '\(rest.string)'")
            return
        }
        guard let digest = room.referenceDigest, let locks = room.withReference({ $0.locks.count }) else {
            digestMismatches += 1
            failures.note("bot\(bot.index): no room mirror to compare")
            return
        }
        if server.seq != bot.lastSeq || server.seq != UInt64(room.referenceSeq) || server.value != digest.description {
            digestMismatches += 1
            failures.note("bot\(bot.index): seen to seq \(bot.lastSeq), room mirror seq=\(room.referenceSeq) digest=\(digest) but server seq=\(server.seq) value=\(server.value)")
        }
        if server.held != 0 || locks != 0 {
            heldAtEnd += 1
            failures.note("bot\(bot.index): holds left at the end: server held=\(server.held), room mirror \(locks)")
        }
    }

    /// Every room's reference mirror has every piece exactly once.
    func checkPieces() {
        for room in rooms {
            if let problem = room.withReference({ Self.pieceProblem($0) }) ?? nil {
                pieceErrors += 1
                failures.note("\(room.name): \(problem)")
            }
        }
    }

    /// Why the mirror does not have every piece exactly once, or nil.
    static func pieceProblem(_ room: RoomState) -> String? {
        let g = room.geometry
        var seen = [Bool](repeating: false, count: g.cellCount)
        var onBoard = 0
        for (piece, state) in room.pieces.enumerated() {
            switch state.location {
            case .board(let c):
                guard g.isOnBoard(c) else { return "piece \(piece) is off the board at \(c)" }
                let i = g.index(of: c)
                guard !seen[i] else { return "cell \(c) holds two pieces" }
                guard room.occupant(of: c) == piece else { return "cell \(c) does not list piece \(piece)" }
                seen[i] = true
                onBoard += 1
            case .table(let p):
                guard room.spec.kind == .jigsaw, g.contains(p) else { return "piece \(piece) lies at \(p), not on the table" }
            }
        }
        if room.spec.kind == .swap && onBoard != room.pieceCount { return "\(room.pieceCount - onBoard) swap tiles are missing from the board" }
        return nil
    }
}
