import PuzzleCore
import PuzzleProtocol

extension LoadTest {
    /// Asks for a free piece (free per the bot's mirror and not claimed by
    /// another bot). With none free the bot waits, idle.
    func startCycle(_ bot: BenchBot) {
        // The room's mirror is read in place (`reference?.`), never copied out.
        let room = rooms[bot.room]
        guard !stopping, bot.connected, let solved = room.withReference({ $0.isSolved }) else { return }
        guard !solved else {
            skip(bot.forgetOwed())
            bot.phase = .waitingForPuzzle
            return
        }
        guard let piece = choosePiece(room) else {
            bot.phase = .idle
            if interval == nil && !bot.listedIdle {
                bot.listedIdle = true
                idle.append(bot.index)
            }
            skip(bot.forgetOwed())
            return
        }
        room.claimed.insert(piece)
        bot.out.append(ascii: "GRAB ")
        bot.out.append(decimal: piece)
        bot.out.append(0x0A)
        bot.expect(.grab, piece: piece, intended: now)
        bot.phase = .grabbing
        total.grabsSent += 1
        markDirty(bot)
    }

    /// The grab succeeded: plan the path home and send any drags owed.
    func grabbed(_ bot: BenchBot, piece: Int) {
        let room = rooms[bot.room]
        let path = room.withReference { r -> (from: Point, to: Point)? in
            guard piece < r.pieceCount, r.holder(of: piece) == PlayerID(bot.player) else { return nil }
            return (r.position(of: piece), r.geometry.origin(of: r.homeCell(of: piece)))
        }
        guard let (from, to) = path ?? nil else {
            // The hold is already gone (a solve came between); nothing to drag.
            rooms[bot.room].claimed.remove(piece)
            if stopping { bot.phase = .finished } else if bot.phase == .grabbing { startCycle(bot) }
            return
        }
        bot.piece = piece
        bot.step = 0
        paths.begin(bot: bot.index, piece: piece, from: from, to: to)
        bot.phase = .holding
        if stopping {
            drop(bot)
            bot.phase = .finished
            return
        }
        if interval == nil {
            pump(bot)
        } else {
            while bot.phase == .holding, let slot = bot.takeOwed() { sendDrag(bot, intended: slot) }
        }
    }

    /// Sends the next step of the bot's path; after the last, drops and asks
    /// for the next piece in the same write.
    func sendDrag(_ bot: BenchBot, intended: UInt64) {
        let i = bot.step
        let to = paths.step(bot: bot.index, i)
        bot.out.append(ascii: "DRAG ")
        bot.out.append(decimal: bot.piece)
        bot.out.append(0x20)
        bot.out.append(decimal: Int(to.x))
        bot.out.append(0x20)
        bot.out.append(decimal: Int(to.y))
        bot.out.append(0x0A)
        paths.markSent(bot: bot.index, i, at: intended)
        bot.step += 1
        bot.expect(.drag, piece: bot.piece, intended: intended)
        total.dragsSent += 1
        if inWindow(intended) { window.dragsSent += 1 }
        markDirty(bot)
        if bot.step == paths.steps {
            drop(bot)
            startCycle(bot)
        }
    }

    func drop(_ bot: BenchBot) {
        bot.out.append(ascii: "DROP ")
        bot.out.append(decimal: bot.piece)
        bot.out.append(0x0A)
        bot.expect(.drop, piece: bot.piece, intended: now)
        total.dropsSent += 1
        endCycle(bot)
        markDirty(bot)
    }

    /// The bot no longer holds its piece (dropped, or lost to a solve).
    func endCycle(_ bot: BenchBot) {
        rooms[bot.room].claimed.remove(bot.piece)
        bot.phase = .idle
    }

    /// `--rate max`: keep up to `window` requests in flight while holding.
    func pump(_ bot: BenchBot) {
        while !stopping && bot.phase == .holding && bot.inFlight < options.window {
            sendDrag(bot, intended: now)
        }
    }

    /// `--rate N`: every bot whose slot is due drags now, or owes the drag
    /// while its grab is in flight; a bot that cannot play skips the slot.
    func firePacedSlots() {
        guard let interval else { return }
        while let top = heap.top, top.time <= now {
            _ = heap.pop()
            let bot = bots[Int(top.bot)]
            switch bot.phase {
            case .holding: sendDrag(bot, intended: top.time)
            case .grabbing: bot.owe(top.time)
            case .idle:
                startCycle(bot)
                if bot.phase == .grabbing { bot.owe(top.time) } else { skip(1) }
            case .joining, .waitingForPuzzle, .finished: skip(1)
            }
            if !stopping && bot.connected { heap.push(time: top.time + interval, bot: bot.index) }
        }
    }

    /// `--rate max`: bots that found no free piece try again.
    func retryIdle() {
        let list = idle
        idle.removeAll(keepingCapacity: true)
        for i in list {
            bots[i].listedIdle = false
            if bots[i].phase == .idle { startCycle(bots[i]) }
        }
    }

    func skip(_ n: Int) {
        guard n > 0 else { return }
        total.skippedSlots += n
        if inWindow(now) { window.skippedSlots += n }
    }

    /// A piece neither held, claimed nor in place: random probes, then a scan
    /// from a random start (only near the end of a puzzle). Cheapest test first.
    func choosePiece(_ room: BenchRoom) -> Int? {
        room.withReference { r -> Int? in
            r.randomFreePiece(using: &rng, excluding: room.claimed.contains)
        } ?? nil
    }
}
