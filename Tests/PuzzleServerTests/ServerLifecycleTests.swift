import PuzzleLink
import Foundation
import Glibc
import Testing
import PuzzleTestSupport
import PuzzleSystem
import PuzzleServer

/// A connection's life (issue 19, item 4): a registration epoll refuses
/// closes that connection with a logged reason, never leaves it stalled
/// (watched for the wrong thing, with level-triggered epoll) while the
/// server goes on serving everyone else.
@Suite struct ServerLifecycleTests {
    @Test func aRefusedEpollModifyClosesThatConnectionWithALoggedReason() throws {
        let log = LogLines()
        let faulty = try FaultyReadinessQueue()
        // One SAY at once, then one a second: the second pauses the connection,
        // which asks epoll to stop watching its input.
        let server = try TestServer(log: log, readinessQueue: faulty) { c in
            c.chatBurst = 1
            c.chatRateLimit = 1
        }
        defer { server.stop() }
        let talker = try LineClient(port: server.port, name: "talker")
        try talker.enter(as: "talker")
        let other = try LineClient(port: server.port, name: "other")
        try other.enter(as: "other")
        #expect(try talker.request("SAY one").reply == "OK said")

        faulty.failModifies(Errno(rawValue: ENOMEM))
        try talker.send("SAY two")
        // Closed, the paused SAY never answered: not left waiting for input
        // the loop no longer watches.
        let lines = try talker.waitForClose()
        #expect(!lines.contains("OK said"), "\(lines)")
        #expect(log.waitFor { $0.contains("cannot watch talker#") && $0.contains("closing it") } != nil)
        #expect(faulty.failedModifyCount >= 1)
        faulty.failModifies(nil)

        // Its player left like any dropped version 1 player; the server serves on.
        _ = try other.waitForEvent { $0.hasSuffix(" left 1") }
        #expect(try other.request("PING still").reply == "PONG still")
        let late = try LineClient(port: server.port, name: "late")
        #expect(try late.request("PING").reply == "PONG")
    }

    /// The loop's own readiness queue failing ends the server: `run()`
    /// throws, the connections close, and the data directory is let go (once
    /// no worker writes into it), so another server can start on it at once.
    @Test func aFailingReadinessQueueEndsTheServerAndLetsGoOfItsData() throws {
        let data = TestServer.temporaryDirectory()
        let faulty = try FaultyReadinessQueue()
        let server = try TestServer(dataDirectory: data, readinessQueue: faulty)
        let player = try LineClient(port: server.port, name: "player")
        try player.enter(as: "player")
        faulty.failWaits(Errno(rawValue: EBADF))
        // The loop is woken (a request comes), and its next wait fails.
        try? player.send("PING")
        _ = try? player.waitForClose()
        #expect(server.waitForStop() != nil, "run() threw the queue's failure")
        let again = try TestServer(dataDirectory: data)
        defer { again.stop() }
        let other = try LineClient(port: again.port, name: "other")
        #expect(try other.request("PING").reply == "PONG")
    }
}
