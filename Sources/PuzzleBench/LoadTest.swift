import Foundation
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// The network load test: N bots in R rooms, driven by one epoll loop on one
/// thread, paced open-loop, with latency measured from intended send times.
///
/// Stored properties here, in `BenchBot` and in `BenchRoom` opt out of
/// dynamic exclusivity checks: everything runs on the loop's one thread with
/// no overlapping accesses, and the checks cost about a tenth of the time per
/// delivered event (millions a second).
final class LoadTest {
    let options: BenchOptions
    let host: String
    let port: UInt16
    let queue: EpollQueue
    @exclusivity(unchecked) var bots: [BenchBot] = []
    @exclusivity(unchecked) var rooms: [BenchRoom] = []
    @exclusivity(unchecked) var heap = SlotHeap()
    /// Per-bot pacing interval (ns) with `--rate N`; nil with `--rate max`.
    let interval: UInt64?

    @exclusivity(unchecked) var total = LoadCounters()
    @exclusivity(unchecked) var window = LoadCounters()
    @exclusivity(unchecked) var failures = LoadFailures()
    /// End-check failures: bots whose mirror differs from the server's DIGEST,
    /// that saw holds left, or whose mirror lost or doubled a piece.
    @exclusivity(unchecked) var digestMismatches = 0
    /// Bots whose snapshot or event stream differs from their room's reference.
    @exclusivity(unchecked) var viewMismatches = 0
    @exclusivity(unchecked) var heldAtEnd = 0
    @exclusivity(unchecked) var pieceErrors = 0
    @exclusivity(unchecked) var replyLatency = LatencyHistogram()
    @exclusivity(unchecked) var broadcastLatency = LatencyHistogram()

    @exclusivity(unchecked) var now: UInt64 = 0
    @exclusivity(unchecked) var startedAt: UInt64 = 0
    @exclusivity(unchecked) var windowStart: UInt64 = .max
    @exclusivity(unchecked) var windowEnd: UInt64 = .max
    @exclusivity(unchecked) var stopping = false
    @exclusivity(unchecked) var joined = 0
    /// Bots with output to flush at the end of this loop turn.
    @exclusivity(unchecked) var dirty: [Int] = []
    /// Bots wanting a piece while none was free (`--rate max` retries them).
    @exclusivity(unchecked) var idle: [Int] = []
    /// Bot index by server player id minus `playerBase`.
    @exclusivity(unchecked) var botByPlayer: [Int32] = []
    @exclusivity(unchecked) var playerBase = 0
    @exclusivity(unchecked) var rng: SeededGenerator
    let readBuffer: UnsafeMutableRawBufferPointer
    let paths: PathTable

    init(options: BenchOptions, host: String, port: UInt16) throws(Errno) {
        self.options = options
        self.host = host
        self.port = port
        queue = try EpollQueue(maxEventsPerWait: 1024)
        rng = SeededGenerator(seed: options.seed)
        if case .perSecond(let r) = options.rate {
            interval = UInt64(max(1, Double(options.bots) / r * 1e9))
        } else {
            interval = nil
        }
        readBuffer = .allocate(byteCount: 256 * 1024, alignment: 16)
        paths = PathTable(bots: options.bots, steps: options.steps)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Whether monotonic time `t` falls in the measured window.
    @inline(__always)
    func inWindow(_ t: UInt64) -> Bool { t >= windowStart && t < windowEnd }

    /// Milliseconds since the start, as the bots' room clock.
    var clockMillis: Int64 { Int64((now &- startedAt) / 1_000_000) }

    // MARK: - Connecting

    /// Connects every bot, greets and joins; returns once all have joined.
    func connectAll(roomNames: [String]) throws {
        rooms = roomNames.map(BenchRoom.init)
        now = MonotonicClock.nowNanoseconds
        startedAt = now
        for i in 0..<options.bots {
            let socket = try Socket.connect(host: host, port: port, timeoutMillis: 5000)
            try socket.setNoDelay()
            let room = i % rooms.count
            let bot = BenchBot(index: i, room: room, socket: socket)
            bots.append(bot)
            rooms[room].members.append(i)
            try queue.register(socket.descriptor, interest: .readable, token: UInt64(i))
            bot.sendLine("HELLO 1 bot\(i)")
            bot.expect(.hello, intended: now)
            bot.sendLine("JOIN \(rooms[room].name)")
            bot.expect(.join, intended: now)
            markDirty(bot)
            // Drain as we go so a thousand greetings never pile up unread.
            if i % 64 == 63 { try turn(timeoutMillis: 0) }
        }
        let deadline = MonotonicClock.nowNanoseconds + 60_000_000_000
        while joined + failures.disconnects < bots.count {
            guard MonotonicClock.nowNanoseconds < deadline else {
                throw BenchFailure("only \(joined) of \(bots.count) bots joined within 60 s")
            }
            try turn(timeoutMillis: 10)
        }
        // The rooms' references may still trail a bot that joined later.
        while !rooms.allSatisfy(\.caughtUp) && failures.disconnects == 0 {
            guard MonotonicClock.nowNanoseconds < deadline else {
                throw BenchFailure("room mirrors did not catch up with the bots' snapshots within 60 s")
            }
            try turn(timeoutMillis: 10)
        }
        for room in rooms { room.endJoining() }
        guard failures.disconnects == 0 else { throw BenchFailure("\(failures.disconnects) bot(s) disconnected while joining: \(failures.messages.joined(separator: "; "))") }
        let ids = bots.map(\.player)
        playerBase = ids.min() ?? 0
        botByPlayer = [Int32](repeating: -1, count: (ids.max() ?? 0) - playerBase + 1)
        for bot in bots { botByPlayer[bot.player - playerBase] = Int32(bot.index) }
    }

    // MARK: - The loop

    /// Plays for warm-up plus duration, calling `progress` about once a second.
    func play(progress: (LoadTest, Bool) -> Void) throws {
        now = MonotonicClock.nowNanoseconds
        startedAt = now
        windowStart = now + UInt64(options.warmup * 1e9)
        windowEnd = windowStart + UInt64(options.duration * 1e9)
        if let interval {
            // Spread the bots' first slots evenly over one interval.
            for bot in bots { heap.push(time: now + interval * UInt64(bot.index) / UInt64(bots.count), bot: bot.index) }
        }
        for bot in bots { startCycle(bot) }
        flushDirty()
        var nextProgress = now + 1_000_000_000
        var nextIdleRetry = now
        while now < windowEnd {
            var timeout: Int32 = 1
            if let top = heap.top {
                timeout = top.time <= now ? 0 : Int32(min(1, (top.time - now) / 1_000_000))
            }
            try turn(timeoutMillis: timeout)
            firePacedSlots()
            if !idle.isEmpty && now >= nextIdleRetry {
                // Scanning for free pieces is costly when there are none: not every turn.
                retryIdle()
                nextIdleRetry = now + 2_000_000
            }
            flushDirty()
            if now >= nextProgress {
                progress(self, false)
                nextProgress += 1_000_000_000
            }
        }
        progress(self, true)
    }

    /// One epoll wait and the handling of every ready bot.
    func turn(timeoutMillis: Int32) throws {
        let ready = try queue.wait(timeoutMillis: timeoutMillis)
        now = MonotonicClock.nowNanoseconds
        for event in ready {
            let bot = bots[Int(event.token)]
            if event.readable || event.hangup || event.error { receive(bot) }
            if event.writable && bot.connected { flush(bot) }
        }
        flushDirty()
    }

    func markDirty(_ bot: BenchBot) {
        if !bot.queuedForFlush && bot.connected {
            bot.queuedForFlush = true
            dirty.append(bot.index)
        }
    }

    func flushDirty() {
        guard !dirty.isEmpty else { return }
        let list = dirty
        dirty.removeAll(keepingCapacity: true)
        for i in list {
            let bot = bots[i]
            bot.queuedForFlush = false
            if bot.connected { flush(bot) }
        }
    }

    func flush(_ bot: BenchBot) {
        guard bot.flush() else { return disconnected(bot, why: "send failed") }
        let wants = bot.hasUnsentOutput
        if wants != bot.wantsWritable {
            bot.wantsWritable = wants
            try? queue.modify(bot.socket.descriptor, interest: wants ? .both : .readable, token: UInt64(bot.index))
        }
    }

    func disconnected(_ bot: BenchBot, why: String) {
        guard bot.connected else { return }
        bot.connected = false
        bot.phase = .finished
        failures.disconnects += 1
        failures.note("bot\(bot.index): disconnected (\(why))")
        try? queue.deregister(bot.socket.descriptor)
        try? bot.socket.close()
    }

    func closeAll() {
        for bot in bots where bot.connected {
            bot.connected = false
            try? queue.deregister(bot.socket.descriptor)
            try? bot.socket.close()
        }
    }
}

/// Why a load test could not run to its end checks.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
