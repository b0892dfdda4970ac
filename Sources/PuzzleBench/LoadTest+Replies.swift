import PuzzleCore
import PuzzleProtocol

extension LoadTest {
    /// Matches an `OK`, `ERR` or `PONG` line to the bot's oldest request.
    func reply(_ bot: BenchBot, _ line: LineScanner) {
        guard let request = bot.answered() else {
            failures.unexpectedReplies += 1
            failures.note("bot\(bot.index): reply to nothing: '\(line.string.prefix(80))'")
            return
        }
        var s = line
        let first = s.word()
        if s.matches(first, "OK") {
            ok(bot, request, s)
        } else if s.matches(first, "ERR") {
            let code = s.word()
            refused(bot, request, code: String(decoding: UnsafeRawBufferPointer(start: s.base + code.lowerBound, count: code.count), as: UTF8.self), line: line)
        } else {
            failures.unexpectedReplies += 1
            failures.note("bot\(bot.index): '\(line.string.prefix(80))' answered \(request.kind)")
        }
    }

    private func ok(_ bot: BenchBot, _ request: PendingRequest, _ rest: LineScanner) {
        switch request.kind {
        case .drag:
            total.dragsOK += 1
            total.expectedDeliveries += rooms[bot.room].members.count - 1
            if inWindow(request.intended) {
                window.dragsOK += 1
                window.expectedDeliveries += rooms[bot.room].members.count - 1
                replyLatency.record(now > request.intended ? (now - request.intended) / 1000 : 0)
            }
            if interval == nil { pump(bot) }
        case .grab:
            total.grabsOK += 1
            if inWindow(now) { window.grabsOK += 1 }
            grabbed(bot, piece: Int(request.piece))
        case .drop:
            total.dropsOK += 1
            if inWindow(now) { window.dropsOK += 1 }
            // Drops are a tenth of the replies: decoded the general way.
            if !stopping, case .dropped(_, _, solved: true)? = ReplyCodec.decode(Substring(rest.string)) {
                bot.sendLine("NEXT")
                bot.expect(.next, intended: now)
                total.nextSent += 1
                markDirty(bot)
            }
        case .next:
            total.nextOK += 1
        case .hello, .release:
            break
        case .join:
            joinedRoom(bot, rest)
        case .digest:
            checkDigest(bot, rest)
        }
    }

    private func refused(_ bot: BenchBot, _ request: PendingRequest, code: String, line: LineScanner) {
        if code == "RATE_LIMITED" {
            total.rateLimited += 1
            if inWindow(now) { window.rateLimited += 1 }
        }
        switch request.kind {
        case .drag:
            total.dragsRefused += 1
            if inWindow(request.intended) { window.dragsRefused += 1 }
            if code == "NOT_HOLDER" {
                total.lostHolds += 1
            } else if code != "RATE_LIMITED" {
                unexpected(bot, line)
            }
            if interval == nil { pump(bot) }
        case .grab:
            rooms[bot.room].claimed.remove(Int(request.piece))
            switch code {
            case "HELD":
                total.grabsHeld += 1
                if inWindow(now) { window.grabsHeld += 1 }
            case "SOLVED":
                total.grabsSolved += 1
            default:
                unexpected(bot, line)
            }
            bot.phase = .idle
            if stopping {
                bot.phase = .finished
            } else if rooms[bot.room].withReference({ $0.isSolved }) == true {
                skip(bot.forgetOwed())
                bot.phase = .waitingForPuzzle
            } else {
                startCycle(bot)
            }
        case .drop:
            if code == "NOT_HOLDER" { total.lostHolds += 1 } else { unexpected(bot, line) }
        case .next:
            // Another bot's NEXT got there first.
            if code != "NOT_SOLVED" { unexpected(bot, line) }
        case .release:
            if code != "NOT_HOLDER" { unexpected(bot, line) }
        case .hello, .join, .digest:
            failures.mirrorErrors += 1
            failures.note("bot\(bot.index): \(request.kind) refused: \(line.string)")
            bot.phase = .finished
        }
    }

    private func unexpected(_ bot: BenchBot, _ line: LineScanner) {
        total.errors += 1
        if inWindow(now) { window.errors += 1 }
        failures.note("bot\(bot.index): \(line.string.prefix(100))")
    }

    /// `OK joined <room> id=<id> seq=<n>`: build the mirror from the snapshot lines.
    private func joinedRoom(_ bot: BenchBot, _ rest: LineScanner) {
        let text = String(decoding: bot.stateLines, as: UTF8.self)
        bot.stateLines = []
        guard case .joined(_, let player, let seq)? = ReplyCodec.decode(Substring(rest.string)) else {
            failures.mirrorErrors += 1
            failures.note("bot\(bot.index): bad JOIN reply '\(rest.string)'")
            return
        }
        do {
            let snapshot = try SnapshotCodec.decode(text.split(separator: "\n"), now: clockMillis)
            guard snapshot.state.seq == seq else {
                failures.mirrorErrors += 1
                failures.note("bot\(bot.index): snapshot seq \(snapshot.state.seq) but JOIN says \(seq)")
                return
            }
            snapshotJoined(bot, state: snapshot.state)
        } catch {
            failures.mirrorErrors += 1
            failures.note("bot\(bot.index): bad snapshot: \(error)")
            return
        }
        bot.player = player.rawValue
        bot.phase = .idle
        joined += 1
    }
}
