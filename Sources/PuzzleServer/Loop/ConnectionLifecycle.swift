import PuzzleProtocol
import PuzzleSystem

/// A connection's life, every change of `Connection.state` in one place (see
/// `ConnectionState` for the stages): each transition checks the stage it
/// starts from, files the connection anew in the table, and keeps its epoll
/// registration in step.
///
/// Ending a connection after its goodbye (QUIT, BYE, HTTP) never resets it:
/// closing a TCP socket with unread input makes the kernel send RST, and a
/// reset throws away whatever the peer has not received yet (the last
/// replies, the BYE). So once everything is flushed the server shuts down its
/// sending side (the peer reads every byte, then end of stream) and reads and
/// discards input until the peer's own end of stream, for a bounded time and
/// number of bytes; only then is the socket closed.
///
/// What a session's end means for its room is the router's: the lifecycle
/// says so through `sessionEnds`, and the loop carries out what comes of it.
///
/// Not thread-safe: owned by the server's event loop.
final class ConnectionLifecycle {
    /// Open connections, filed by stage (`stateChanged` on every transition).
    let connections: ConnectionTable
    private let queue: any ReadinessQueue
    private let logger: Logger
    private let stats: ServerStats
    /// Reused buffer for input read and discarded while draining.
    private var drainBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// A connection's session ends: its player leaves its room (`leaves`)
    /// or drops from it, able to come back (the loop asks the router).
    var sessionEnds: (_ conn: Connection, _ leaves: Bool) -> Void = { _, _ in }

    /// How long, and for how many bytes, a connection that was said goodbye
    /// to is drained waiting for the peer's end of stream before it is closed
    /// anyway.
    static let lingerMillis: Int64 = 5000
    static let lingerMaxBytes = 1 << 20

    init(connections: ConnectionTable, queue: any ReadinessQueue, logger: Logger, stats: ServerStats) {
        self.connections = connections
        self.queue = queue
        self.logger = logger
        self.stats = stats
    }

    private func enter(_ conn: Connection, _ state: ConnectionState) {
        conn.state = state
        connections.stateChanged(conn)
    }

    /// A new connection, just filed in the table (active), registered for
    /// input; → closed when epoll refuses it. Returns whether it is open.
    func open(_ conn: Connection) -> Bool {
        do {
            try queue.register(conn.socket.descriptor, interest: .readable, token: conn.token)
            return true
        } catch {
            logger.warn("cannot watch \(conn.peer): \(error)")
            close(conn, reason: "epoll registration failed: \(error)")
            return false
        }
    }

    /// active → paused: `conn`'s requests, starting with `request`, wait
    /// unread until `until`.
    func pause(_ conn: Connection, until: Int64, deferring request: Request) {
        // Only a request being answered pauses, and only active connections' are.
        guard conn.state.isActive else { return assertionFailure("pause of \(conn.label) in state \(conn.state)") }
        enter(conn, .paused(until: until, deferred: request))
        updateInterest(conn)
    }

    /// paused → active: its wait is over (the loop then answers the
    /// deferred request and the lines read meanwhile).
    func resume(_ conn: Connection) {
        guard conn.state.pausedUntil != nil else { return assertionFailure("resume of \(conn.label) in state \(conn.state)") }
        enter(conn, .active)
        updateInterest(conn)
    }

    /// active → paused with no end: the connection's upload is being decoded
    /// and stored, or the room its CREATE asked for made, off the loop, and
    /// nothing after it may be answered before its reply (replies keep their
    /// order). Its input is not read meanwhile.
    func holdForWorker(_ conn: Connection) {
        guard conn.state.isActive else { return assertionFailure("worker hold of \(conn.label) in state \(conn.state)") }
        enter(conn, .paused(until: .max, deferred: nil))
        updateInterest(conn)
    }

    /// The peer shut its sending side: nothing more comes, what it sent is
    /// still answered (then `handleLines` says goodbye).
    func endInput(_ conn: Connection) {
        conn.inputEnded = true
        updateInterest(conn)
    }

    /// active or paused → closingAfterGoodbye: the one way the server ends a
    /// connection on purpose, once per connection. Sends the goodbye's line
    /// after everything queued, and the player leaves its room (or drops from
    /// it, see `Goodbye.leavesRoom`). `BYE SLOW` goes out past the queue from
    /// any open stage, and closes abortively at once.
    func sayGoodbye(_ conn: Connection, _ goodbye: Goodbye) {
        if case .slow(let why) = goodbye {
            guard conn.state.isOpen else { return }
            stats.slowReaderDisconnects += 1
            logger.warn("disconnecting slow reader \(conn.label): \(why)")
            // Best effort: the queue is full, so say goodbye past it (not
            // to a browser: bytes past its queue could land inside a frame).
            // The LF first ends whatever line the full queue's bytes were cut in.
            if conn.transport != .web { _ = try? conn.socket.send([UInt8(ascii: "\n")] + goodbye.bytes) }
            // Abortive: the kernel would otherwise keep megabytes queued for a
            // peer that is not reading.
            return close(conn, reason: goodbye.reason, abort: true)
        }
        switch conn.state {
        case .active, .paused: break
        case .closingAfterGoodbye, .draining, .closed: return
        }
        let said = goodbye.bytes
        switch conn.transport {
        case .lines, .undecided:
            if !said.isEmpty { conn.send(bytes: said) }
        case .web:
            // A WebSocket gets the line as a message, then the close frame;
            // an HTTP connection, no line.
            if conn.web?.phase == .webSocket {
                if !said.isEmpty { conn.send(bytes: said) }
                if let frame = conn.web?.close(goodbye.closeCode, reason: goodbye.reason) { conn.sendWire(frame) }
            } else if case .web(_, let frame?) = goodbye, !frame.isEmpty {
                conn.sendWire(frame)
            }
        }
        sessionEnds(conn, goodbye.leavesRoom)
        // Another connection speaks for the player now.
        if goodbye == .resumed { conn.session.player = nil }
        enter(conn, .closingAfterGoodbye(goodbye))
        conn.markDirty()
    }

    /// closingAfterGoodbye → draining, once everything queued is sent (or
    /// → closed when the peer already ended its side and everything it sent
    /// was read: nothing unread can remain, so a plain close is orderly).
    func finishClosing(_ conn: Connection, now: Int64, serverStopping: Bool) {
        guard case .closingAfterGoodbye(let goodbye) = conn.state else { return }
        if conn.inputEnded { return close(conn, reason: goodbye.reason) }
        do {
            try conn.socket.shutdown(.write)
        } catch {
            return close(conn, reason: "\(goodbye.reason); shutdown failed: \(error)")
        }
        enter(conn, .draining(goodbye, until: now + Self.lingerMillis, discarded: 0))
        conn.waitingForWritable = false
        updateInterest(conn)
        if serverStopping && conn.state.isOpen {
            // The loop is about to end: take what has arrived, then close.
            drain(conn)
            close(conn, reason: goodbye.reason)
        }
    }

    /// Reads and discards a draining connection's input; → closed at the
    /// peer's end of stream, or when it sends more than the drain allows.
    func drain(_ conn: Connection) {
        while case .draining(let goodbye, let until, let discarded) = conn.state {
            let result: IOResult
            do {
                result = try drainBuffer.withUnsafeMutableBytes { (buf) throws(Errno) -> IOResult in try conn.socket.receive(into: buf) }
            } catch {
                return close(conn, reason: "\(goodbye.reason); read error while draining: \(error)")
            }
            switch result {
            case .wouldBlock:
                return
            case .processed(0):
                return close(conn, reason: goodbye.reason)
            case .processed(let n):
                guard discarded + n <= Self.lingerMaxBytes else {
                    return close(conn, reason: "\(goodbye.reason); kept sending after the goodbye")
                }
                enter(conn, .draining(goodbye, until: until, discarded: discarded + n))
            }
        }
    }

    /// draining → closed for connections whose peer never ended its side in time.
    func endDraining(now: Int64) {
        guard !connections.draining.isEmpty else { return }
        for conn in Array(connections.draining.values) {
            guard case .draining(let goodbye, let until, _) = conn.state, now >= until else { continue }
            close(conn, reason: "\(goodbye.reason); peer did not close within \(Self.lingerMillis) ms")
        }
    }

    /// Any open stage → closed, now; a player still in a room drops from it
    /// (a link lost without a goodbye; holds go back, or wait for a version 2
    /// player's return).
    func close(_ conn: Connection, reason: String, abort: Bool = false) {
        guard conn.state.isOpen else { return }
        enter(conn, .closed)
        sessionEnds(conn, false)
        // Closing the descriptor takes it out of the epoll set anyway; a
        // failed deregister (never registered, already gone) changes nothing.
        try? queue.deregister(conn.socket.descriptor)
        if abort { try? conn.socket.abort() } else { try? conn.socket.close() }
        logger.debug("closed \(conn.label): \(reason)")
    }

    /// What epoll should watch a connection for: input unless the peer has
    /// ended it, the connection is paused or its pipelined requests (HTTP
    /// or lines) wait for its output to drain, and room to write while
    /// output waits. A registration that fails closes the connection.
    func updateInterest(_ conn: Connection) {
        guard conn.state.isOpen else { return }
        var interest: Interest = []
        // After a goodbye input is read again, to be drained: nothing waits for an answer then.
        let heldBack = (conn.readsHeldBack || conn.linesWaitForOutput) && !conn.state.saidGoodbye
        if !conn.inputEnded && conn.state.pausedUntil == nil && !heldBack { interest.insert(.readable) }
        if conn.waitingForWritable { interest.insert(.writable) }
        do {
            try queue.modify(conn.socket.descriptor, interest: interest, token: conn.token)
        } catch {
            // Level-triggered: watched for the wrong thing, the connection
            // would stall (never read, never flushed) or spin the loop.
            logger.error("cannot watch \(conn.label) (epoll_ctl: \(error)); closing it")
            close(conn, reason: "epoll registration failed: \(error)")
        }
    }

    /// Says goodbye to connections idle past `timeoutSeconds` (0: never),
    /// and closes those said goodbye to a whole idle period ago that still
    /// do not read it.
    func sweepIdle(now: Int64, timeoutSeconds: Int) {
        guard timeoutSeconds > 0 else { return }
        let limit = Int64(timeoutSeconds) * 1000
        for conn in Array(connections.values) where now - conn.lastActivity > limit {
            switch conn.state {
            case .active, .paused:
                sayGoodbye(conn, .idle(seconds: timeoutSeconds))
            case .closingAfterGoodbye:
                if now - conn.lastActivity > 2 * limit { close(conn, reason: "idle, not reading", abort: true) }
            case .draining, .closed:
                continue  // draining has its own deadline
            }
        }
    }
}
