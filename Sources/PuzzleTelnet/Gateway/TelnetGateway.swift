import Foundation
import PuzzleSystem

/// The server's telnet port: a listener on a thread of its own that gives each telnet
/// client a `TelnetDriver` (a thread of its own too), so drawing never runs on the game
/// loop and a slow terminal never delays a room's broadcast.
///
/// The gateway is a client of the server, not a second server: each session reaches the
/// rooms through `connect`, a socket speaking the line protocol (the server hands it one
/// end of a socket pair, counted under the telnet client's address, so the per-address
/// cap is the game port's). The rules stay in one place.
///
/// Limits: `maxSessions` at once (further clients get one line and are closed), the idle
/// timeout on keys, each client's output bounded (`TelnetOutput`).
public final class TelnetGateway: @unchecked Sendable {
    /// The nice value of the sessions' threads (the game loop's is the process's).
    static let sessionNice: Int32 = 10
    /// What all sessions' drawing may take together: a fifth of one core.
    let budget = DrawBudget(share: 0.2)

    /// Gives a socket speaking the line protocol to the rooms, for a player at `host`.
    public typealias Connect = @Sendable (_ host: String) throws -> Socket

    public let settings: TelnetSettings
    /// The port listened on (the chosen one when the settings say 0).
    public let port: Int
    /// Players' come-back codes (`ComeBackCodes`).
    public let codes = ComeBackCodes()
    private let listener: Socket
    private let waker: Waker
    private let connect: Connect
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    /// Open sessions' client sockets, by a number never reused (a descriptor's number is).
    private var sessions: [UInt64: Socket] = [:]
    private var nextSession: UInt64 = 0
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)
    private let sessionsDone = DispatchGroup()
    private var started = false

    /// Listens on the settings' address and port (the thread starts with `start`).
    /// - Throws: what `listen` reports (the port in use).
    public init(settings: TelnetSettings, connect: @escaping Connect, log: @escaping @Sendable (String) -> Void) throws {
        self.settings = settings
        self.connect = connect
        self.log = log
        listener = try Socket.listen(host: settings.bind, port: UInt16(settings.port), backlog: 128)
        do {
            port = Int(try listener.localPort)
            waker = try Waker()
        } catch {
            try? listener.close()
            throw error
        }
    }

    /// Telnet sessions open now.
    public var sessionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
    }

    /// Starts accepting, on a thread of its own.
    public func start() {
        lock.lock()
        started = true
        lock.unlock()
        let thread = Thread { [self] in
            acceptLoop()
            done.signal()
        }
        thread.name = "telnet-gateway"
        thread.start()
    }

    /// Stops accepting, ends every session (their sockets shut down) and waits for them
    /// (bounded). Safe from any thread; once.
    public func stop(timeout: Double = 5) {
        lock.lock()
        let first = !stopping
        stopping = true
        let wasStarted = started
        // Under the lock: a session closes its socket only after leaving `sessions`.
        if first { for socket in sessions.values { try? socket.shutdown(.both) } }
        lock.unlock()
        guard first else { return }
        waker.wake()
        if wasStarted { _ = done.wait(timeout: .now() + timeout) }
        _ = sessionsDone.wait(timeout: .now() + timeout)
        try? listener.close()
        try? waker.close()
    }

    private func acceptLoop() {
        guard let queue = try? EpollQueue(maxEventsPerWait: 4) else { return log("telnet: cannot watch the listener") }
        defer { queue.close() }
        do {
            try queue.register(listener.descriptor, interest: .readable, token: 1)
            try queue.register(waker.descriptor, interest: .readable, token: 2)
        } catch {
            return log("telnet: cannot watch the listener: \(error)")
        }
        while true {
            guard let events = try? queue.wait(timeoutMillis: 1000) else { return }
            for e in events where e.token == 2 { return }
            guard !events.isEmpty else { continue }
            for _ in 0..<64 {
                let result: Socket.AcceptResult
                do { result = try listener.accept() } catch {
                    // Out of descriptors: wait a moment rather than spin on a readable listener.
                    log("telnet: accept failed: \(error)")
                    Thread.sleep(forTimeInterval: 0.1)
                    break
                }
                guard case .accepted(let socket, let peer) = result else { break }
                admit(socket, peer: peer)
            }
        }
    }

    private func admit(_ socket: Socket, peer: SocketAddress) {
        lock.lock()
        let refused = stopping ? "the server is stopping" : sessions.count >= settings.maxSessions
            ? "all \(settings.maxSessions) telnet places are taken; try again later" : nil
        let id = nextSession
        if refused == nil {
            nextSession += 1
            sessions[id] = socket
        }
        lock.unlock()
        if let refused {
            log("telnet \(peer) refused: \(refused)")
            _ = try? socket.send(Array("puzzle-room: \(refused)\r\n".utf8))
            try? socket.close()
            return
        }
        try? socket.setNoDelay(true)
        if settings.sendBuffer > 0 { try? socket.setSendBufferSize(settings.sendBuffer) }
        log("telnet \(peer) connected")
        sessionsDone.enter()
        let thread = Thread { [self] in
            // Drawing yields to the game loop (and to everything else) when the CPU is
            // short: a telnet player gets fewer frames, the room's broadcast no delay.
            try? ThreadPriority.lowerCurrentThread(nice: Self.sessionNice)
            // Made on its thread and never leaves it.
            TelnetDriver(client: socket, peer: peer, settings: settings, connect: connect, codes: codes, budget: budget, id: id, log: log).run()
            budget.forget(id)
            lock.lock()
            sessions[id] = nil
            lock.unlock()
            try? socket.close()
            sessionsDone.leave()
        }
        thread.name = "telnet-session"
        thread.stackSize = 2 << 20
        thread.start()
    }

    deinit { stop() }
}
