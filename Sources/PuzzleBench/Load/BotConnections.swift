import PuzzleProtocol
import PuzzleSystem

/// Handles the lines the bots receive: each complete line without its LF,
/// in place in the read buffer (valid only during the call).
protocol BotLineSink: AnyObject {
    func handle(_ bot: BenchBot, line: UnsafeRawBufferPointer)
}

/// The bots' connections and their I/O, on one epoll queue: connecting,
/// reading and splitting lines, writing queued output at the end of each
/// loop turn, and closing. What the lines mean is the sink's business; this
/// type only counts disconnects.
///
/// The line path is generic over the sink, not an existential or a closure:
/// it is specialised for the load test and runs millions of times a second.
final class BotConnections {
    let queue: EpollQueue
    let clock: RunClock
    let tally: LoadTally
    /// Every bot, by index (its epoll token).
    @exclusivity(unchecked) private(set) var bots: [BenchBot] = []
    /// Bots with output to flush at the end of this loop turn.
    @exclusivity(unchecked) private var dirty: [Int] = []
    /// One buffer for every read: lines are handled in place in it.
    private let readBuffer: UnsafeMutableRawBufferPointer
    static let readBufferSize = 256 * 1024

    init(clock: RunClock, tally: LoadTally) throws(Errno) {
        queue = try EpollQueue(maxEventsPerWait: 1024)
        self.clock = clock
        self.tally = tally
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Connects one more bot (the next index) for room `room`.
    func connect(host: String, port: UInt16, room: Int) throws -> BenchBot {
        let socket = try Socket.connect(host: host, port: port, timeoutMillis: 5000)
        try socket.setNoDelay()
        let bot = BenchBot(index: bots.count, room: room, socket: socket)
        bots.append(bot)
        try queue.register(socket.descriptor, interest: .readable, token: UInt64(bot.index))
        return bot
    }

    /// One epoll wait and the handling of every ready bot, then the flush of
    /// what the handling queued.
    func turn<Sink: BotLineSink>(timeoutMillis: Int32, lines sink: Sink) throws {
        let ready = try queue.wait(timeoutMillis: timeoutMillis)
        clock.tick()
        for event in ready {
            let bot = bots[Int(event.token)]
            if event.readable || event.hangup || event.error { receive(bot, lines: sink) }
            if event.writable && bot.connected { flush(bot) }
        }
        flushDirty()
    }

    /// Reads what a bot's socket has (a bounded number of reads, for fairness
    /// between bots) and hands every complete line to `sink` in place: the
    /// bot's `LineFramer` frames each read where it lies, and copies only a
    /// line cut between reads. Empty lines are not handed on.
    func receive<Sink: BotLineSink>(_ bot: BenchBot, lines sink: Sink) {
        let buffer = readBuffer
        for _ in 0..<4 {
            // A WebSocket bot's frame cut between reads goes in front of the
            // next one (a TCP bot's framer carries a cut line itself).
            let carried = bot.carry.count
            guard carried < buffer.count / 2 else {
                tally.failures.mirrorErrors += 1
                return disconnected(bot, why: "a frame longer than \(carried) bytes")
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
                if let link = bot.webSocket {
                    if carried > 0 { bot.carry.removeAll(keepingCapacity: true) }
                    unframe(bot, link, UnsafeRawBufferPointer(rebasing: buffer[..<(carried + n)]), lines: sink)
                } else {
                    var overlong = 0
                    bot.framer.split(UnsafeRawBufferPointer(rebasing: buffer[..<n])) { span in
                        switch span {
                        case .line(let line):
                            if !line.isEmpty { sink.handle(bot, line: line) }
                        case .overlong(let length):
                            overlong = length
                            return false
                        }
                        return bot.connected
                    }
                    if overlong > 0 {
                        tally.failures.mirrorErrors += 1
                        return disconnected(bot, why: "a line longer than \(bot.framer.maxLineLength) bytes")
                    }
                }
                if n < space.count || !bot.connected { return }
            }
        }
    }

    // MARK: - Output

    /// Queues `bot` for a flush at the end of this loop turn (once).
    func markDirty(_ bot: BenchBot) {
        if !bot.queuedForFlush && bot.connected {
            bot.queuedForFlush = true
            dirty.append(bot.index)
        }
    }

    /// Flushes every bot queued by `markDirty`.
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

    /// Writes what the socket takes; asks for writability while output is left.
    /// A bot whose wait cannot be changed is dropped as a failure: left as it
    /// was, it would stall unseen (its output never flushed, or its loop
    /// woken for nothing) and pass for a slow bot in the throughput.
    func flush(_ bot: BenchBot) {
        guard bot.flush() else { return disconnected(bot, why: "send failed") }
        let wants = bot.hasUnsentOutput
        if wants != bot.wantsWritable {
            bot.wantsWritable = wants
            do {
                try queue.modify(bot.socket.descriptor, interest: wants ? .both : .readable, token: UInt64(bot.index))
            } catch {
                // Counted as a disconnect: the run's "no disconnect" check fails, with the why noted.
                disconnected(bot, why: "its epoll interest could not be changed (\(error))")
            }
        }
    }

    // MARK: - Closing

    /// The bot's connection is gone (or given up): counted as a disconnect.
    func disconnected(_ bot: BenchBot, why: String) {
        guard bot.connected else { return }
        bot.connected = false
        bot.phase = .finished
        tally.failures.disconnects += 1
        tally.note("bot\(bot.index): disconnected (\(why))")
        try? queue.deregister(bot.socket.descriptor)
        try? bot.socket.close()
    }

    /// Closes every connection still open (the end of the run, not a failure).
    func closeAll() {
        for bot in bots where bot.connected {
            bot.connected = false
            try? queue.deregister(bot.socket.descriptor)
            try? bot.socket.close()
        }
    }
}
