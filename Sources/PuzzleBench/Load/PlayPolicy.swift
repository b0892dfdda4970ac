import PuzzleCore

/// How the bots play: each bot's grab-drag-drop cycle, which piece it asks
/// for and where it takes it (`--play pieces`: into its cell; `--play
/// parts`: beside a neighbour on the table or, a part, into the board, as
/// `PartBuilder` decides; `--play carry`: its own part built, then carried
/// round the table, as `CarryPlan` decides), when its next drag goes out (paced open-loop with `--rate N`, a
/// window of requests in flight with `--rate max`), and what it does when a
/// grab is refused or the puzzle is solved under it.
///
/// It writes requests into the bots' output and records them in their
/// in-flight queues; `ReplyHandler` tells it what the answers mean.
final class PlayPolicy: ReferenceStreamObserver {
    let connections: BotConnections
    let rooms: [BenchRoom]
    let tally: LoadTally
    let clock: RunClock
    /// Every bot's drag paths, also read to time deliveries.
    let paths: PathTable
    /// Per-bot pacing interval (ns) with `--rate N`; nil with `--rate max`.
    let interval: UInt64?
    /// With `--rate max`: requests each holding bot keeps in flight.
    let window: Int
    /// With `--play parts`: what to grab and where to take it.
    let builder: PartBuilder?
    /// With `--play carry`: each bot's part, and where it takes it.
    let carry: CarryPlan?
    /// With `--play carry`: the pieces of each bot's part (filled by `start`,
    /// once every bot has its seat in its room).
    @exclusivity(unchecked) private var carried: [[Int]] = []
    private let rows: Int, cols: Int
    /// When each bot's next paced slot is due (`--rate N`).
    @exclusivity(unchecked) private var heap = SlotHeap()
    /// Bots wanting a piece while none was free (`--rate max` retries them).
    @exclusivity(unchecked) private var idle: [Int] = []
    @exclusivity(unchecked) private var rng: SeededGenerator
    /// The run is winding down: no new grabs or drags.
    @exclusivity(unchecked) private(set) var stopping = false

    init(options: BenchOptions, connections: BotConnections, rooms: [BenchRoom], tally: LoadTally) {
        self.connections = connections
        self.rooms = rooms
        self.tally = tally
        clock = tally.clock
        paths = PathTable(bots: options.bots, steps: options.steps)
        if case .perSecond(let r) = options.rate {
            interval = UInt64(max(1, Double(options.bots) / r * 1e9))
        } else {
            interval = nil
        }
        window = options.window
        builder = options.play == .parts ? PartBuilder(carrySize: options.carrySize) : nil
        carry = options.play == .carry ? CarryPlan(size: options.carrySize) : nil
        rows = options.rows
        cols = options.cols
        rng = SeededGenerator(seed: options.seed)
    }

    private var bots: [BenchBot] { connections.bots }

    // MARK: - The run

    /// Starts every bot's first cycle; with `--rate N` their first slots are
    /// spread evenly over one interval.
    func start() {
        if let carry {
            carried = Array(repeating: [], count: bots.count)
            for room in rooms {
                for (seat, m) in room.members.enumerated() { carried[m] = carry.pieces(forSeat: seat, rows: rows, cols: cols) }
            }
        }
        let now = clock.now
        if let interval {
            for bot in bots { heap.push(time: now + interval * UInt64(bot.index) / UInt64(bots.count), bot: bot.index) }
        }
        for bot in bots { startCycle(bot) }
    }

    /// When the next paced slot is due, if any.
    var nextSlot: UInt64? { heap.top?.time }

    /// Whether bots wait for a free piece (`--rate max`).
    var hasIdleBots: Bool { !idle.isEmpty }

    /// Stops playing: no more slots; holders drop; a bot whose grab is in
    /// flight is finished by its reply.
    func stop() {
        stopping = true
        heap.removeAll()
        for bot in bots {
            tally.skip(bot.forgetOwed())
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
    }

    // MARK: - A bot's cycle

    /// Asks for a free piece (free per the room's mirror and not claimed by
    /// another bot). With none free the bot waits, idle.
    func startCycle(_ bot: BenchBot) {
        // The room's mirror is read in place, never copied out.
        let room = rooms[bot.room]
        guard !stopping, bot.connected, let solved = room.stream.withReference({ $0.isSolved }) else { return }
        guard !solved else {
            tally.skip(bot.forgetOwed())
            bot.phase = .waitingForPuzzle
            return
        }
        guard let (piece, key) = choosePiece(room, for: bot) else {
            bot.phase = .idle
            if interval == nil && !bot.listedIdle {
                bot.listedIdle = true
                idle.append(bot.index)
            }
            tally.skip(bot.forgetOwed())
            return
        }
        room.claimed.insert(key)
        bot.claim = key
        bot.send(.grab(piece))
        bot.expect(.grab, piece: piece, intended: clock.now)
        bot.phase = .grabbing
        tally.total.grabsSent += 1
        connections.markDirty(bot)
    }

    /// The grab succeeded: plan the path home and send any drags owed.
    func grabbed(_ bot: BenchBot, piece: Int) {
        let room = rooms[bot.room]
        let builder = builder, carry = carry, own = carry == nil ? [] : carried[bot.index]
        let path = room.stream.withReference { r -> (from: Point, to: Point, joining: Int?)? in
            guard piece < r.pieceCount, r.holder(of: piece) == PlayerID(bot.player) else { return nil }
            let from = r.position(of: piece)
            if let carry { return (from, carry.destination(of: piece, own: own, in: r, using: &rng) ?? from, nil) }
            guard let builder else { return (r.position(of: piece), r.geometry.origin(of: r.homeCell(of: piece)), nil) }
            let d = builder.destination(of: piece, in: r, using: &rng, claimed: room.claimed.contains)
            return (r.position(of: piece), d.point, d.joining.map { PartBuilder.claimKey(of: $0, in: r) })
        }
        guard let (from, to, joining) = path ?? nil else {
            // The hold is already gone (a solve came between); nothing to drag.
            releaseClaims(bot)
            if stopping { bot.phase = .finished } else if bot.phase == .grabbing { startCycle(bot) }
            return
        }
        // The part it goes to join is left alone by the other bots meanwhile.
        if let joining, room.claimed.insert(joining).inserted { bot.claimJoining = joining }
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

    /// The grab was refused (HELD, SOLVED, ...): the piece is free to others
    /// again, and the bot tries another one unless the puzzle is solved.
    func grabRefused(_ bot: BenchBot, piece: Int) {
        releaseClaims(bot)
        bot.phase = .idle
        if stopping {
            bot.phase = .finished
        } else if rooms[bot.room].stream.withReference({ $0.isSolved }) == true {
            tally.skip(bot.forgetOwed())
            bot.phase = .waitingForPuzzle
        } else {
            startCycle(bot)
        }
    }

    /// A drag was answered: with `--rate max` the freed window is refilled.
    func dragAnswered(_ bot: BenchBot) {
        if interval == nil { pump(bot) }
    }

    /// The bot's drop solved the puzzle: it asks for the next one.
    func askForNextPuzzle(_ bot: BenchBot) {
        bot.send(.next)
        bot.expect(.next, intended: clock.now)
        tally.total.nextSent += 1
        connections.markDirty(bot)
    }

    /// Sends the next step of the bot's path; after the last, drops and asks
    /// for the next piece in the same write.
    func sendDrag(_ bot: BenchBot, intended: UInt64) {
        let i = bot.step
        let to = paths.step(bot: bot.index, i)
        bot.send(.drag(bot.piece, Point(x: Int(to.x), y: Int(to.y))))
        paths.markSent(bot: bot.index, i, at: intended)
        bot.step += 1
        bot.expect(.drag, piece: bot.piece, intended: intended)
        tally.total.dragsSent += 1
        if clock.inWindow(intended) { tally.window.dragsSent += 1 }
        connections.markDirty(bot)
        if bot.step == paths.steps {
            drop(bot)
            startCycle(bot)
        }
    }

    /// Drops the bot's piece where its path left it.
    func drop(_ bot: BenchBot) {
        bot.send(.drop(bot.piece))
        bot.expect(.drop, piece: bot.piece, intended: clock.now)
        tally.total.dropsSent += 1
        endCycle(bot)
        connections.markDirty(bot)
    }

    /// The bot no longer holds its piece (dropped, or lost to a solve).
    private func endCycle(_ bot: BenchBot) {
        releaseClaims(bot)
        bot.phase = .idle
    }

    /// Gives back what the bot claimed: what it grabbed, and the part it
    /// went to join.
    private func releaseClaims(_ bot: BenchBot) {
        let room = rooms[bot.room]
        if bot.claim >= 0 { room.claimed.remove(bot.claim) }
        if bot.claimJoining >= 0 { room.claimed.remove(bot.claimJoining) }
        bot.claim = -1
        bot.claimJoining = -1
    }

    // MARK: - Pacing

    /// `--rate max`: keep up to `window` requests in flight while holding.
    private func pump(_ bot: BenchBot) {
        while !stopping && bot.phase == .holding && bot.inFlight < window {
            sendDrag(bot, intended: clock.now)
        }
    }

    /// `--rate N`: every bot whose slot is due drags now, or owes the drag
    /// while its grab is in flight; a bot that cannot play skips the slot.
    func firePacedSlots() {
        guard let interval else { return }
        let bots = connections.bots
        while let top = heap.top, top.time <= clock.now {
            _ = heap.pop()
            let bot = bots[Int(top.bot)]
            switch bot.phase {
            case .holding: sendDrag(bot, intended: top.time)
            case .grabbing: bot.owe(top.time)
            case .idle:
                startCycle(bot)
                if bot.phase == .grabbing { bot.owe(top.time) } else { tally.skip(1) }
            case .joining, .waitingForPuzzle, .finished: tally.skip(1)
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

    /// A piece neither held, claimed nor in place, and the key it is
    /// claimed under (the piece; with `--play parts` its part): random
    /// probes, then a scan from a random start (only near the end of a
    /// puzzle). Cheapest test first. With `--play carry`: the bot's own
    /// part's next grip (`CarryPlan`).
    private func choosePiece(_ room: BenchRoom, for bot: BenchBot) -> (piece: Int, key: Int)? {
        if let carry {
            let own = carried[bot.index]
            return room.stream.withReference { r in carry.grip(for: own, in: r).map { ($0, $0) } } ?? nil
        }
        if builder != nil {
            return room.stream.withReference { r -> (piece: Int, key: Int)? in
                PartBuilder.choosePiece(in: r, using: &rng, claimed: room.claimed.contains).map { ($0, PartBuilder.claimKey(of: $0, in: r)) }
            } ?? nil
        }
        return room.stream.withReference { r -> (piece: Int, key: Int)? in
            r.randomFreePiece(using: &rng, excluding: room.claimed.contains).map { ($0, $0) }
        } ?? nil
    }

    // MARK: - What the room's reference applied

    func puzzleSolved(inRoom room: Int) {
        // The solve ended every hold in the room, whether or not its holder
        // has read the event yet.
        for m in rooms[room].members {
            let bot = bots[m]
            if bot.phase == .holding {
                tally.total.lostHolds += 1
                endCycle(bot)
                bot.phase = .waitingForPuzzle
            } else if bot.phase == .idle {
                bot.phase = .waitingForPuzzle
            }
        }
    }

    func nextPuzzleStarted(inRoom room: Int) {
        rooms[room].claimed.removeAll()
        for m in rooms[room].members { bots[m].claim = -1; bots[m].claimJoining = -1 }
        for m in rooms[room].members where bots[m].phase == .waitingForPuzzle { startCycle(bots[m]) }
    }
}
