import Foundation
import PuzzleSystem

/// Sockets handed to the event loop from other threads (the telnet gateway's ends of
/// socket pairs), each with the address of the player it speaks for: the loop takes
/// them as connections from that address, as if accepted.
///
/// Thread-safe: `hand` from any thread wakes the loop, which `take`s them.
final class AdoptedSockets: @unchecked Sendable {
    /// One socket and whose it is.
    struct Handed {
        var socket: Socket
        /// The player's address (the telnet client's), for the per-address cap and NAME_TAKEN.
        var host: String
        /// How the log names it.
        var peer: String
    }

    let waker: Waker
    private let lock = NSLock()
    private var waiting: [Handed] = []
    /// Set once the loop takes no more (it ended): what comes later is closed at once.
    private var closed = false

    init() throws {
        waker = try Waker()
    }

    /// Gives the loop `socket`; false (and the socket closed) when the loop has ended.
    @discardableResult
    func hand(_ socket: Socket, host: String, peer: String) -> Bool {
        lock.lock()
        guard !closed else {
            lock.unlock()
            try? socket.close()
            return false
        }
        waiting.append(Handed(socket: socket, host: host, peer: peer))
        lock.unlock()
        waker.wake()
        return true
    }

    /// What was handed since the last call.
    func take() -> [Handed] {
        _ = try? waker.drain()
        lock.lock()
        defer { lock.unlock() }
        let taken = waiting
        waiting.removeAll()
        return taken
    }

    /// The loop ended: closes what waits and whatever comes later.
    func close() {
        lock.lock()
        closed = true
        let left = waiting
        waiting.removeAll()
        lock.unlock()
        for h in left { try? h.socket.close() }
    }

    deinit { try? waker.close() }
}
