@testable import PuzzleServer
import Glibc
import PuzzleSystem
import Testing

/// The listening socket alone: where it cannot listen, what it accepts,
/// and that nothing is accepted once it is closed.
@Suite struct ListenerTests {
    static let token: UInt64 = 1

    @Test func aPortInUseIsAListenErrorNamingTheAddress() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        let first = try Listener(host: "127.0.0.1", port: 0, queue: queue, token: Self.token, logger: Logger(level: .error))
        defer { first.close() }
        #expect(throws: ListenError(address: "127.0.0.1", port: first.port, errno: Errno(rawValue: EADDRINUSE))) {
            _ = try Listener(host: "127.0.0.1", port: first.port, queue: queue, token: 2, logger: Logger(level: .error))
        }
    }

    @Test func acceptsWhatWaitsUntilClosed() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        let listener = try Listener(host: "127.0.0.1", port: 0, queue: queue, token: Self.token, logger: Logger(level: .error))
        #expect(listener.accept(now: 0) == nil)
        let client = try Socket.connect(host: "127.0.0.1", port: UInt16(listener.port), timeoutMillis: 5000)
        defer { try? client.close() }
        // Readable under its token once the connection waits.
        let ready = try queue.wait(timeoutMillis: 5000)
        #expect(ready.map(\.token) == [Self.token])
        let accepted = try #require(listener.accept(now: 0))
        defer { try? accepted.socket.close() }
        #expect(accepted.peer.host == "127.0.0.1")
        #expect(listener.accept(now: 0) == nil)
        #expect(listener.pausedUntil == nil)

        listener.close()
        listener.close()
        #expect(listener.accept(now: 0) == nil)
        #expect(throws: Errno.self) { _ = try Socket.connect(host: "127.0.0.1", port: UInt16(listener.port), timeoutMillis: 5000) }
    }
}
