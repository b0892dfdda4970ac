import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleSystem

/// The network load test: N bots in R rooms, driven by one epoll loop on one
/// thread, paced open-loop, with latency measured from intended send times.
///
/// A coordinator: it runs the phases (connect and join, play, settle and
/// check) and routes each line a bot receives to the part that owns it:
/// - `BotConnections`: the sockets, reading and splitting lines, writing;
/// - `DragDeliveries`: counting and timing the `dragged` events (the bulk);
/// - `ReferenceStream` (one per room): the other sequenced events, checked
///   equal for every member and applied once to the room's mirror;
/// - `ReplyHandler`: replies matched to requests, then handed on;
/// - `PlayPolicy`: what each bot asks next, and when;
/// - `EndChecks`: DIGEST and piece checks at the end;
/// - `LoadTally` and `RunClock`: the counters and the time they share.
///
/// Stored properties of these parts (and of `BenchBot`) opt out of dynamic
/// exclusivity checks: everything runs on the loop's one thread with no
/// overlapping accesses, and the checks cost about a tenth of the time per
/// delivered event (millions a second).
final class LoadTest: BotLineSink {
    let options: BenchOptions
    let host: String
    let port: UInt16
    let clock = RunClock()
    let tally: LoadTally
    let connections: BotConnections
    let rooms: [BenchRoom]
    let policy: PlayPolicy
    let deliveries: DragDeliveries
    let replies: ReplyHandler
    let endChecks: EndChecks

    init(options: BenchOptions, host: String, port: UInt16, roomNames: [String]) throws(Errno) {
        self.options = options
        self.host = host
        self.port = port
        let tally = LoadTally(clock: clock)
        self.tally = tally
        connections = try BotConnections(clock: clock, tally: tally)
        let clock = clock
        rooms = roomNames.enumerated().map { i, name in
            BenchRoom(name: name, stream: ReferenceStream(name: name, room: i, clock: clock, tally: tally))
        }
        policy = PlayPolicy(options: options, connections: connections, rooms: rooms, tally: tally)
        deliveries = DragDeliveries(paths: policy.paths, tally: tally)
        endChecks = EndChecks(tally: tally)
        replies = ReplyHandler(rooms: rooms, policy: policy, endChecks: endChecks, tally: tally)
    }

    var bots: [BenchBot] { connections.bots }

    func turn(timeoutMillis: Int32) throws {
        try connections.turn(timeoutMillis: timeoutMillis, lines: self)
    }

    // MARK: - Connecting

    /// Connects every bot, greets and joins; returns once all have joined.
    func connectAll() throws {
        clock.start()
        for i in 0..<options.bots {
            let room = i % rooms.count
            let bot = try connections.connect(host: host, port: port, room: room)
            if options.webSocket { connections.upgrade(bot, host: host, port: port) }
            rooms[room].members.append(i)
            // Version 2, as the play client: compact snapshots (the start
            // layout from the core, the picture by hash and never fetched).
            bot.send(.hello(version: 2, name: "bot\(i)"))
            bot.expect(.hello, intended: clock.now)
            bot.send(.join(room: rooms[room].name, password: nil))
            bot.expect(.join, intended: clock.now)
            connections.markDirty(bot)
            // Drain as we go so a thousand greetings never pile up unread.
            if i % 64 == 63 { try turn(timeoutMillis: 0) }
        }
        let deadline = MonotonicClock.nowNanoseconds + 60_000_000_000
        while replies.joined + tally.failures.disconnects < bots.count {
            guard MonotonicClock.nowNanoseconds < deadline else {
                throw BenchFailure("only \(replies.joined) of \(bots.count) bots joined within 60 s")
            }
            try turn(timeoutMillis: 10)
        }
        // The rooms' references may still trail a bot that joined later.
        while !rooms.allSatisfy(\.stream.caughtUp) && tally.failures.disconnects == 0 {
            guard MonotonicClock.nowNanoseconds < deadline else {
                throw BenchFailure("room mirrors did not catch up with the bots' snapshots within 60 s")
            }
            try turn(timeoutMillis: 10)
        }
        for room in rooms { room.stream.endJoining() }
        let failures = tally.failures
        guard failures.disconnects == 0 else { throw BenchFailure("\(failures.disconnects) bot(s) disconnected while joining: \(failures.messages.joined(separator: "; "))") }
        deliveries.index(bots)
    }

    // MARK: - The loop

    /// Plays for warm-up plus duration, calling `progress` about once a second.
    func play(progress: (LoadTest, Bool) -> Void) throws {
        clock.start()
        clock.measure(warmup: options.warmup, duration: options.duration)
        policy.start()
        connections.flushDirty()
        var nextProgress = clock.now + 1_000_000_000
        var nextIdleRetry = clock.now
        while clock.now < clock.windowEnd {
            var timeout: Int32 = 1
            if let due = policy.nextSlot {
                timeout = due <= clock.now ? 0 : Int32(min(1, (due - clock.now) / 1_000_000))
            }
            try turn(timeoutMillis: timeout)
            policy.firePacedSlots()
            if policy.hasIdleBots && clock.now >= nextIdleRetry {
                // Scanning for free pieces is costly when there are none: not every turn.
                policy.retryIdle()
                nextIdleRetry = clock.now + 2_000_000
            }
            connections.flushDirty()
            if clock.now >= nextProgress {
                progress(self, false)
                nextProgress += 1_000_000_000
            }
        }
        progress(self, true)
    }

    /// Stops sending drags, lets every bot drop what it holds, waits until
    /// every request has its reply, then has every bot compare its mirror with
    /// the server's DIGEST, and one bot a room read the room's final snapshot
    /// (SYNC) and compare it, parts and all, with the mirror.
    func finish() throws {
        policy.stop()
        connections.flushDirty()
        let deadline = MonotonicClock.nowNanoseconds + UInt64(options.settleSeconds * 1e9)
        func busy() -> Int {
            bots.reduce(0) { $0 + ($1.connected && ($1.inFlight > 0 || $1.hasUnsentOutput || $1.phase == .grabbing) ? 1 : 0) }
        }
        while busy() > 0 {
            guard MonotonicClock.nowNanoseconds < deadline else {
                tally.mirrorError("not quiescent after \(options.settleSeconds) s: \(busy()) bot(s) still waiting for replies")
                return
            }
            try turn(timeoutMillis: 10)
        }
        for bot in bots where bot.connected {
            bot.send(.digest)
            bot.expect(.digest, intended: clock.now)
            connections.markDirty(bot)
        }
        connections.flushDirty()
        while bots.contains(where: { $0.connected && !$0.checked }) {
            guard MonotonicClock.nowNanoseconds < deadline else {
                tally.mirrorError("DIGEST replies missing after \(options.settleSeconds) s")
                return
            }
            try turn(timeoutMillis: 10)
        }
        for room in rooms {
            guard let first = room.members.lazy.map({ self.bots[$0] }).first(where: \.connected) else { continue }
            first.snapshotAsked = true
            first.send(.sync)
            first.expect(.sync, intended: clock.now)
            connections.markDirty(first)
        }
        connections.flushDirty()
        while bots.contains(where: { $0.connected && $0.snapshotAsked && !$0.snapshotChecked }) {
            guard MonotonicClock.nowNanoseconds < deadline else {
                tally.mirrorError("SYNC replies missing after \(options.settleSeconds) s")
                return
            }
            try turn(timeoutMillis: 10)
        }
        endChecks.checkPieces(rooms)
        endChecks.checkParts(rooms)
    }

    func closeAll() { connections.closeAll() }

    // MARK: - Routing the lines

    /// Dispatches one server line (without its LF) to the part that owns it.
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
            replies.received(bot, LineScanner(line))
        case UInt8(ascii: "B"):
            let text = LineScanner(line).string
            tally.note("bot\(bot.index): \(text)")
            connections.disconnected(bot, why: text)
        default:
            tally.mirrorError("bot\(bot.index): unexpected line '\(LineScanner(line).string.prefix(80))'")
        }
    }

    /// "dragged " as a little-endian 64-bit word.
    static var draggedWord: UInt64 { 0x2064_6567_6761_7264 }

    /// An event line: drags to `deliveries`, chat ignored, every other
    /// (sequenced) event to the room's reference stream.
    private func event(_ bot: BenchBot, _ line: LineScanner) {
        var s = line
        s.position = 3  // "EV "
        guard let seqValue = s.int(), seqValue >= 0 else { return tally.badEvent(bot: bot.index, line) }
        let seq = UInt64(seqValue)
        // Nearly every line is a drag: recognise " dragged " in one 8-byte compare.
        if s.position + 9 <= s.end && UnsafeRawPointer(s.base + s.position + 1).loadUnaligned(as: UInt64.self) == Self.draggedWord {
            s.position += 9
            return deliveries.received(bot, seq: seq, s, line)
        }
        let name = s.word()
        if s.matches(name, "dragged") { return deliveries.received(bot, seq: seq, s, line) }
        if s.matches(name, "say") { return }
        guard bot.phase != .joining else { return tally.badEvent(bot: bot.index, line) }
        tally.total.eventLines += 1
        if clock.inWindow(clock.now) { tally.window.eventLines += 1 }
        rooms[bot.room].stream.sequenced(bot: bot.index, lastSeq: &bot.lastSeq, seq: seq, line: line, observer: policy)
    }

    // MARK: - Running

    /// Runs a whole load test: server (unless `--server`), rooms, bots, play,
    /// end checks. Throws when the run cannot get going at all.
    static func run(_ options: BenchOptions, progress: @escaping (String) -> Void = { _ in }) throws -> LoadReport {
        // Each bot is one descriptor here, and one more in an in-process server.
        _ = try? ResourceLimits.raiseOpenFileLimit(to: UInt64(options.bots * 2 + 256))
        var inProcess: BenchServer?
        let host: String, port: UInt16
        if options.server != nil {
            guard let endpoint = options.serverEndpoint else { throw BenchFailure("--server: not HOST:PORT") }
            (host, port) = endpoint
        } else {
            let server = try BenchServer(maxConnections: options.bots + 64, seed: options.seed)
            inProcess = server
            (host, port) = ("127.0.0.1", server.port)
        }
        defer { inProcess?.stop() }

        // Set-up and statistics, outside the bots' loop.
        let admin = try LineClient(port: Int(port), name: "bench admin", host: host)
        try admin.answer(.hello(version: 1, name: "bench-admin"))
        var names: [String] = []
        var suffixRNG = SystemRandomNumberGenerator()
        let tag = String(UInt32.random(in: 0...UInt32.max, using: &suffixRNG), radix: 36)
        for i in 0..<options.rooms {
            let name = "\(options.roomPrefix)\(tag)-\(i)"
            try admin.answer(.create(RoomSpec(name: name, kind: options.kind, rows: options.rows, cols: options.cols)))
            names.append(name)
        }

        let test = try LoadTest(options: options, host: host, port: port, roomNames: names)
        defer { test.closeAll() }
        try test.connectAll()
        let serverBefore = options.serverPID.flatMap(ProcessSample.read)
        let benchBefore = try? ProcessStats.cpuSeconds()
        var serverAfter: ProcessSample?
        var benchAfter: Double?
        try test.play { t, last in
            if last {
                serverAfter = options.serverPID.flatMap(ProcessSample.read)
                benchAfter = try? ProcessStats.cpuSeconds()
            }
            progress(t.tally.progressLine)
        }
        try test.finish()
        let stats = try? admin.request(.stats).reply
        var report = test.report(serverStats: stats)
        if options.webSocket { report.transport = "websocket" }
        if let a = benchAfter, let b = benchBefore { report.benchPlayCPUSeconds = a - b }
        if let a = serverAfter, let b = serverBefore {
            report.serverCPUSeconds = a.cpuSeconds - b.cpuSeconds
            report.serverPeakRSS = a.peakResidentBytes
        }
        return report
    }

    /// `puzzle bench` (network): prints the summary or JSON; exit 0 when
    /// every end check passes.
    static func command(_ options: BenchOptions) -> Int32 {
        let tty = options.progress && !options.json && TerminalMode.isTerminal(2)
        do {
            let report = try run(options) { line in
                if tty { FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8)) }
            }
            if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            print(options.json ? report.json : report.text)
            return report.passed ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("\npuzzle bench: \(error)\n".utf8))
            return 1
        }
    }

    /// What the run measured and found, from every part's counts.
    func report(serverStats: String?) -> LoadReport {
        let rate: Double? = if case .perSecond(let r) = options.rate { r } else { nil }
        let total = tally.total, window = tally.window, failures = tally.failures
        return LoadReport(
            bots: options.bots, rooms: options.rooms, board: "\(options.kind.rawValue) \(options.rows)x\(options.cols)",
            steps: options.steps, targetRate: rate, duration: options.duration, warmup: options.warmup,
            server: options.server ?? "in-process 127.0.0.1:\(port)",
            dragsSent: window.dragsSent, dragsOK: window.dragsOK, dragsRefused: window.dragsRefused, deliveries: window.deliveries,
            eventLines: window.eventLines,
            grabsOK: window.grabsOK, dropsOK: window.dropsOK, heldRefusals: window.grabsHeld, rateLimited: window.rateLimited,
            errors: window.errors, skippedSlots: window.skippedSlots,
            reply: tally.replyLatency.summary, broadcast: tally.broadcastLatency.summary,
            replyHistogram: tally.replyLatency, broadcastHistogram: tally.broadcastLatency,
            totalDragsSent: total.dragsSent, totalDragsOK: total.dragsOK, totalDragsRefused: total.dragsRefused,
            totalDeliveries: total.deliveries, totalExpectedDeliveries: total.expectedDeliveries, totalErrors: total.errors,
            lostHolds: total.lostHolds, solves: rooms.flatMap(\.stream.solveMillis),
            disconnects: failures.disconnects, eventGaps: failures.eventGaps, mirrorErrors: failures.mirrorErrors,
            unexpectedReplies: failures.unexpectedReplies, digestMismatches: endChecks.digestMismatches,
            viewMismatches: tally.viewMismatches, heldAtEnd: endChecks.heldAtEnd,
            pieceErrors: endChecks.pieceErrors, partErrors: endChecks.partErrors, snapshotsChecked: endChecks.snapshotsChecked,
            play: options.play.rawValue, merges: total.merges, partsCarriedIn: total.partsCarriedIn,
            piecesCarriedIn: total.piecesCarriedIn, largestPart: total.largestPart, partsAtEnd: endChecks.partsAtEnd,
            notes: failures.messages,
            benchCPUSeconds: (try? ProcessStats.cpuSeconds()) ?? 0, benchPlayCPUSeconds: nil,
            benchPeakRSS: ProcessSample.read(pid: Int(ProcessInfo.processInfo.processIdentifier))?.peakResidentBytes ?? 0,
            serverCPUSeconds: nil, serverPeakRSS: nil, serverStats: serverStats)
    }
}

/// Why a load test could not run to its end checks.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
