import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// The authoritative puzzle-room server: one non-blocking event loop (epoll)
/// that owns every room and connection.
///
/// All state is confined to the thread that calls `run()`; `stop()` may be
/// called from any thread (it only wakes the loop).
public final class PuzzleServer: @unchecked Sendable {
    public let config: ServerConfig
    let logger: Logger
    let queue: EpollQueue
    var listener: Socket?
    /// The port the server listens on (the chosen one when the config says 0).
    public let port: Int
    let waker: Waker
    let signals: SignalWatcher?
    var connections: [UInt64: Connection] = [:]
    var rooms: [String: HostedRoom] = [:]
    let store: RoomStore
    /// Held from start-up until shutdown: no second server on the same data.
    let dataLock: DataDirectoryLock
    let pictures: PictureLibrary
    let flushList = FlushList()
    var stats = ServerStats()
    var rng: SeededGenerator
    var nextToken: UInt64 = 16
    var nextPlayer = 1
    /// Connections with unread complete lines left over from a busy turn.
    var backlog: [Connection] = []
    var closing: [Connection] = []
    var now: Int64
    let startedAt: Int64
    var lastSweep: Int64
    var shuttingDown = false
    /// Set while accepting is paused after running out of descriptors.
    var acceptsPausedUntil: Int64?
    /// Reused read buffer.
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Reused event list for core calls.
    var events: [RoomEvent] = []

    static let listenerToken: UInt64 = 1
    static let wakerToken: UInt64 = 2
    static let signalToken: UInt64 = 3
    /// Lines one connection may have handled per loop turn before others get a go.
    static let linesPerTurn = 512
    /// Most rooms a server hosts (CREATE beyond this is refused).
    static let maxRooms = 1000

    /// Binds the listener, restores rooms from the data directory and opens the
    /// configured ones. `seed` fixes the random generator for new rooms (tests);
    /// nil takes the config's `seed`, and if that is nil too seeds from the system. `handleSignals` turns SIGINT/SIGTERM into a
    /// clean shutdown (call from the main thread before starting other threads).
    public init(config: ServerConfig, logger: Logger, seed: UInt64? = nil, handleSignals: Bool = false) throws {
        self.config = config
        self.logger = logger
        try Signals.ignoreBrokenPipe()
        rng = SeededGenerator(seed: seed ?? config.seed ?? UInt64.random(in: 0...UInt64.max))
        now = MonotonicClock.nowMilliseconds
        startedAt = now
        lastSweep = now
        pictures = try PictureLibrary(files: config.pictures)
        dataLock = try DataDirectoryLock(directory: config.dataDirectory)
        store = try RoomStore(directory: config.dataDirectory, fsync: config.fsync, snapshotEvery: config.snapshotEvery)
        // Every connection is a descriptor; ask for enough (up to the hard limit).
        _ = try? ResourceLimits.raiseOpenFileLimit(to: UInt64(config.maxConnections) + 64)
        queue = try EpollQueue(maxEventsPerWait: 1024)
        waker = try Waker()
        signals = handleSignals ? try SignalWatcher(signals: [.interrupt, .terminate]) : nil
        let listener = try Socket.listen(host: config.bind, port: UInt16(config.port), backlog: 1024)
        self.listener = listener
        port = Int(try listener.localPort)
        try queue.register(listener.descriptor, interest: .readable, token: Self.listenerToken)
        try queue.register(waker.descriptor, interest: .readable, token: Self.wakerToken)
        if let signals { try queue.register(signals.descriptor, interest: .readable, token: Self.signalToken) }
        try restoreRooms()
    }

    /// Asks the loop to shut down cleanly; safe from any thread.
    public func stop() {
        waker.wake()
    }

    /// Runs the event loop until `stop()` or a handled signal, then shuts down
    /// cleanly: stops accepting, tells clients, flushes, snapshots every room.
    public func run() throws {
        logger.info("listening on \(config.bind):\(port) with \(rooms.count) room(s): \(rooms.keys.sorted().joined(separator: ", "))")
        while !shuttingDown {
            try turn()
        }
        try shutdown()
    }

    /// One loop turn: wait for readiness, handle input, expire leases, then
    /// make this turn's moves durable and only then send replies and events.
    func turn() throws {
        let timeout: Int32 = backlog.isEmpty ? nextTimeout() : 0
        let ready = try queue.wait(timeoutMillis: timeout)
        now = MonotonicClock.nowMilliseconds
        for event in ready {
            switch event.token {
            case Self.listenerToken: acceptConnections()
            case Self.wakerToken:
                _ = try? waker.drain()
                shuttingDown = true
            case Self.signalToken:
                while let signal = try? signals?.next() {
                    logger.info("received \(signal), shutting down")
                    shuttingDown = true
                }
            default:
                guard let conn = connections[event.token] else { continue }
                if event.readable || event.hangup || event.error { readInput(conn) }
                if event.writable && conn.connectionIsOpen { flush(conn) }
            }
        }
        if let until = acceptsPausedUntil, now >= until, let listener {
            acceptsPausedUntil = nil
            try? queue.modify(listener.descriptor, interest: .readable, token: Self.listenerToken)
        }
        if !backlog.isEmpty {
            let pending = backlog
            backlog.removeAll()
            for conn in pending where conn.connectionIsOpen { handleLines(conn) }
        }
        expireLeases()
        if now - lastSweep >= 1000 { sweepIdle() }
        finishTurn()
    }

    /// Milliseconds until the next lease expires or the next idle sweep.
    func nextTimeout() -> Int32 {
        var next = lastSweep + 1000
        if let until = acceptsPausedUntil { next = min(next, until) }
        for room in rooms.values {
            if let e = room.state.nextExpiry { next = min(next, e) }
        }
        return Int32(clamping: max(0, min(1000, next - now)))
    }

    func expireLeases() {
        for room in rooms.values where !room.state.locks.isEmpty {
            events.removeAll(keepingCapacity: true)
            room.state.expireLeases(at: now, into: &events)
            if !events.isEmpty { room.broadcast(events) }
        }
    }

    /// Hands broadcasts to members, writes the journal (fsync per policy), and
    /// then flushes every connection with queued bytes.
    func finishTurn() {
        for room in rooms.values {
            if !room.durable.isEmpty {
                store.record(room: room.name, events: room.durable)
                room.durable.removeAll(keepingCapacity: true)
            }
            room.endTurn()
        }
        do {
            for name in try store.commit() {
                if let room = rooms[name] { snapshot(room) }
            }
        } catch {
            // Without a durable journal no reply may claim a move was kept.
            logger.error("journal write failed: \(error); shutting down without acknowledging this turn's moves")
            shuttingDown = true
            return
        }
        let pending = flushList.pending
        flushList.pending.removeAll(keepingCapacity: true)
        for conn in pending {
            conn.isQueuedForFlush = false
            conn.endTurn()
            if conn.connectionIsOpen { flush(conn) }
        }
        let done = closing
        closing.removeAll()
        for conn in done { close(conn, reason: conn.closeReason ?? "closed") }
    }
}
