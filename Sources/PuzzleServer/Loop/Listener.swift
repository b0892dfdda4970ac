import PuzzleSystem

/// The listening socket and its watch in epoll, from start-up until it is
/// closed (at shutdown, or when the server stops on a failure).
///
/// Accepting pauses for a moment after running out of descriptors: the
/// listener stays readable, so watched it would spin the loop while nothing
/// can be accepted. A change of the watch that epoll refuses is tried again
/// after the same moment.
///
/// Not thread-safe: owned by the server's event loop.
final class Listener {
    /// How long accepting pauses; how soon a refused change is tried again.
    static let pauseMillis: Int64 = 100

    /// The port listened on (the chosen one when 0 was asked for).
    let port: Int
    /// When accepting resumes (nil while it is not paused): a timer of the loop.
    private(set) var pausedUntil: Int64?
    /// Nil once closed.
    private var socket: Socket?
    private let queue: any ReadinessQueue
    /// What the loop's readiness events name the listener by.
    private let token: UInt64
    private let logger: Logger
    /// Each accepted socket's send buffer in bytes (0: the system's).
    private let sendBuffer: Int

    /// Listens on `host`:`port` and watches for connections under `token`.
    /// - Throws: `ListenError` when the address cannot be listened on;
    ///   whatever epoll reports when it cannot watch the socket (closed then).
    /// `sendBuffer`: each accepted socket's send buffer in bytes (0: the system's).
    init(host: String, port: Int, queue: any ReadinessQueue, token: UInt64, sendBuffer: Int = 0, logger: Logger) throws {
        self.sendBuffer = sendBuffer
        let socket: Socket
        do {
            socket = try Socket.listen(host: host, port: UInt16(port), backlog: 1024)
        } catch {
            throw ListenError(address: host, port: port, errno: error)
        }
        do {
            self.port = Int(try socket.localPort)
            try queue.register(socket.descriptor, interest: .readable, token: token)
        } catch {
            try? socket.close()
            throw error
        }
        self.socket = socket
        self.queue = queue
        self.token = token
        self.logger = logger
    }

    /// The next connection waiting, or nil when none waits or the listener
    /// is closed. Running out of descriptors (or any other failure) pauses
    /// accepting for `pauseMillis` and gives nil.
    /// Drags go out at once (no Nagle delay), into the configured buffer.
    /// Neither failure stops the connection (it works, only slower or with
    /// the system's buffer), but whoever tunes the server needs to know.
    private func configure(_ socket: Socket, peer: SocketAddress) {
        do { try socket.setNoDelay(true) } catch { logger.warn("cannot set TCP_NODELAY for \(peer): \(error)") }
        guard sendBuffer > 0 else { return }
        do { try socket.setSendBufferSize(sendBuffer) } catch {
            logger.warn("cannot set the send buffer of \(peer) to \(sendBuffer) bytes: \(error)")
        }
    }

    func accept(now: Int64) -> (socket: Socket, peer: SocketAddress)? {
        guard let socket else { return nil }
        do {
            guard case .accepted(let accepted, let peer) = try socket.accept() else { return nil }
            configure(accepted, peer: peer)
            return (accepted, peer)
        } catch {
            logger.warn("accept failed: \(error); pausing accepts for \(Self.pauseMillis) ms")
            watch(false, now: now)
            pausedUntil = now + Self.pauseMillis
            return nil
        }
    }

    /// Accepts again once the pause is over.
    func resumeIfDue(now: Int64) {
        guard let until = pausedUntil, now >= until else { return }
        pausedUntil = nil
        watch(true, now: now)
    }

    /// Stops listening: nothing is accepted after. Closing twice is harmless.
    func close() {
        guard let socket else { return }
        try? queue.deregister(socket.descriptor)
        try? socket.close()
        self.socket = nil
    }

    /// Starts or stops watching the socket; a change epoll refuses is logged
    /// and tried again `pauseMillis` on.
    private func watch(_ on: Bool, now: Int64) {
        guard let socket else { return }
        do {
            try queue.modify(socket.descriptor, interest: on ? .readable : [], token: token)
        } catch {
            logger.error("cannot \(on ? "resume" : "pause") accepting (epoll_ctl: \(error)); retrying in \(Self.pauseMillis) ms")
            pausedUntil = now + Self.pauseMillis
        }
    }
}
