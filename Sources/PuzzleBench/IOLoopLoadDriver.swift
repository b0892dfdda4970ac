import PuzzleSystem

/// The load for `IOLoopComparison`: `members` client sockets on the calling
/// thread around one `EpollQueue`. Lines of ~40 bytes
/// (`EV <seq> m<k> dragged 17 4 40 52 3,4`) go out round-robin over the
/// clients, open loop at a target rate or as fast as a bounded window of
/// undelivered lines allows; every arrival at every member is matched to its
/// line's send time.
final class IOLoopLoadDriver {
    struct Client {
        let socket: Socket
        var out: [UInt8] = []
        var waitingForWritable = false
        /// Received bytes after the last line feed.
        var partial: [UInt8] = []
    }

    let members: Int
    let rate: Int?
    let window: Int
    var clients: [Client] = []
    let queue: EpollQueue
    var dirty: [Int] = []
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)

    /// Ring indexed by `seq % window`: send time and members still to reach.
    var sendTimes: [UInt64]
    var remaining: [Int32]
    /// Next line to send, and the oldest line not yet at every member.
    var next = 0
    var oldest = 0

    /// Measured window bounds (monotonic nanoseconds) and what fell in it.
    var windowStart: UInt64 = .max
    var windowEnd: UInt64 = .max
    var linesInWindow = 0
    var deliveriesInWindow = 0
    var latency = LatencyHistogram()
    var totalDeliveries = 0
    var unexpected = 0

    /// Connects `members` clients to 127.0.0.1:`port`.
    init(port: UInt16, members: Int, rate: Int?, window: Int) throws(Errno) {
        self.members = members
        self.rate = rate
        self.window = window
        sendTimes = [UInt64](repeating: 0, count: window)
        remaining = [Int32](repeating: 0, count: window)
        queue = try EpollQueue(maxEventsPerWait: 256)
        do throws(Errno) {
            for index in 0..<members {
                let socket = try Socket.connect(host: "127.0.0.1", port: port, timeoutMillis: 5000)
                clients.append(Client(socket: socket))
                try socket.setNoDelay()
                try queue.register(socket.descriptor, interest: .readable, token: UInt64(index))
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { readBuffer.deallocate() }

    func close() {
        for client in clients { try? client.socket.close() }
        clients = []
        queue.close()
    }

    /// The figures of one run; CPU fields are filled by `run`.
    struct Outcome {
        var linesInWindow: Int
        var deliveriesInWindow: Int
        var latency: LatencyHistogram
        var windowSeconds: Double
        var processCPU: Double
        var driverCPU: Double
        var totalLinesSent: Int
        var totalDeliveries: Int
        var unexpected: Int
    }

    /// Sends for `warmup + seconds`, measuring the last `seconds`, then waits
    /// (at most `drainSeconds`) for every line sent to reach every member.
    func run(warmup: Double, seconds: Double, drainSeconds: Double = 3) throws(Errno) -> Outcome {
        let start = MonotonicClock.nowNanoseconds
        let plannedStart = start + UInt64(warmup * 1e9)
        let plannedEnd = plannedStart + UInt64(seconds * 1e9)
        var cpuAtStart = (process: 0.0, driver: 0.0)
        var cpuAtEnd = (process: 0.0, driver: 0.0)
        var measuring = false
        while true {
            let now = MonotonicClock.nowNanoseconds
            if !measuring && windowStart == .max && now >= plannedStart {
                // CPU and window open together, at the first turn past the warm-up.
                cpuAtStart = (try ProcessStats.cpuSeconds(), IOLoopThreadCPU.seconds() ?? 0)
                windowStart = now
                measuring = true
            }
            if measuring && now >= plannedEnd {
                cpuAtEnd = (try ProcessStats.cpuSeconds(), IOLoopThreadCPU.seconds() ?? 0)
                windowEnd = now
                measuring = false
            }
            let sending = windowEnd == .max
            if !sending && (oldest == next || now >= windowEnd + UInt64(drainSeconds * 1e9)) { break }
            if sending { produce(now: now, since: start) }
            flushDirty()
            let timeout = sending ? waitMillis(now: now, since: start, until: measuring ? plannedEnd : plannedStart) : 10
            let events = try queue.wait(timeoutMillis: timeout)
            let arrival = MonotonicClock.nowNanoseconds
            for event in events {
                let index = Int(event.token)
                if event.readable || event.hangup || event.error { try receive(index, at: arrival) }
                if event.writable { flush(index) }
            }
        }
        return Outcome(
            linesInWindow: linesInWindow, deliveriesInWindow: deliveriesInWindow, latency: latency,
            windowSeconds: Double(windowEnd - windowStart) / 1e9,
            processCPU: cpuAtEnd.process - cpuAtStart.process, driverCPU: cpuAtEnd.driver - cpuAtStart.driver,
            totalLinesSent: next, totalDeliveries: totalDeliveries, unexpected: unexpected)
    }

    /// Queues the lines due now (all the window allows at max rate).
    private func produce(now: UInt64, since start: UInt64) {
        var due = window - (next - oldest)
        if let rate {
            let owed = Int(Double(now - start) / 1e9 * Double(rate)) - next
            due = min(due, owed)
        }
        guard due > 0 else { return }
        for _ in 0..<due {
            let seq = next
            let member = seq % members
            sendTimes[seq % window] = now
            remaining[seq % window] = Int32(members)
            if clients[member].out.isEmpty { dirty.append(member) }
            Self.appendLine(seq: seq, member: member, to: &clients[member].out)
            next += 1
            if windowStart != .max { linesInWindow += 1 }
        }
    }

    /// How long the next wait may block: until the next line is due, or
    /// (window full, or max rate) until arrivals free the window.
    private func waitMillis(now: UInt64, since start: UInt64, until boundary: UInt64) -> Int32 {
        let windowFull = next - oldest >= window
        var wait: UInt64
        if let rate, !windowFull {
            let due = start + UInt64(Double(next + 1) / Double(rate) * 1e9)
            wait = due > now ? (due - now + 999_999) / 1_000_000 : 0
        } else {
            wait = windowFull ? 5 : 0
        }
        if boundary > now { wait = min(wait, (boundary - now + 999_999) / 1_000_000) }
        return Int32(clamping: wait)
    }

    private func flushDirty() {
        for index in dirty where !clients[index].waitingForWritable { flush(index) }
        dirty.removeAll(keepingCapacity: true)
    }

    private func flush(_ index: Int) {
        guard !clients[index].out.isEmpty else { return }
        let result = (try? clients[index].socket.send(clients[index].out)) ?? .wouldBlock
        if case .processed(let n) = result { clients[index].out.removeFirst(n) }
        let backedUp = !clients[index].out.isEmpty
        if backedUp != clients[index].waitingForWritable {
            clients[index].waitingForWritable = backedUp
            try? queue.modify(clients[index].socket.descriptor, interest: backedUp ? .both : .readable, token: UInt64(index))
        }
    }

    /// Appends `EV <seq> m<member> dragged 17 4 40 52 3,4\n` without a String.
    static func appendLine(seq: Int, member: Int, to out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: "E"), UInt8(ascii: "V"), UInt8(ascii: " ")])
        appendDecimal(seq, to: &out)
        out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "m")])
        appendDecimal(member, to: &out)
        out.append(contentsOf: Self.tail)
    }

    static let tail = Array(" dragged 17 4 40 52 3,4\n".utf8)

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
