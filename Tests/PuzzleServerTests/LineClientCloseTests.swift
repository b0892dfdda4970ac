import PuzzleLink
import PuzzleSystem
import Testing
import PuzzleTestSupport
@testable import PuzzleServer

/// Closing a client is final: the server sees the connection end, and the
/// closed client neither reads nor writes its old descriptor number again
/// (which by then may belong to another connection of this process).
@Suite struct LineClientCloseTests {
    @Test func aClosedClientEndsItsConnectionAndTouchesNothingAfterwards() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        let aid = try a.enter(as: "alice")
        try b.enter(as: "bob")
        a.close()
        try b.waitForEvent { $0.hasSuffix("left \(aid)") }
        #expect(a.closed)
        #expect(throws: LineClient.Timeout.self) { try a.nextLine(timeout: 1) }
        #expect(throws: Errno.badFileDescriptor) { try a.connection.flush() }
        a.connection.enqueue(line: "PING")
        #expect(throws: Errno.badFileDescriptor) { try a.connection.flush() }
        #expect(a.connection.read().closed)
        a.close()  // twice is harmless
        #expect(try b.request("PING").reply == "PONG")
    }
}
