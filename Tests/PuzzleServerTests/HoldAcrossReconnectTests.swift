import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// A held piece outlives a dropped link (issue 10): a version 2 player whose
/// connection drops stays in its room for one lease and keeps its holds for
/// the rest of their leases, and takes its place again by reconnecting with
/// its token and joining.
@Suite(.serialized) struct HoldAcrossReconnectTests {
    static func server(leaseMillis: Int, log: LogLines) throws -> TestServer {
        try TestServer(log: log) { c in
            c.leaseMillis = leaseMillis
            c.logLevel = .info
        }
    }

    /// A server with the lease given; alice (version 2, with her id and token)
    /// and bob (version 1) in its lobby.
    static func aliceAndBob(leaseMillis: Int) throws
        -> (server: TestServer, log: LogLines, alice: LineClient, id: Int, token: String, bob: LineClient) {
        let log = LogLines()
        let server = try Self.server(leaseMillis: leaseMillis, log: log)
        let alice = try LineClient(port: server.port, name: "alice")
        let (id, token) = try Self.enter2(alice, "alice")
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")
        return (server, log, alice, id, token, bob)
    }

    /// HELLO 2 and JOIN lobby; returns the id and token.
    static func enter2(_ client: LineClient, _ name: String, token: String? = nil) throws -> (id: Int, token: String) {
        let greeted = try PlayerIdentityTests.hello2(client, name, token: token)
        let reply = try client.request("JOIN lobby").reply
        guard reply.hasPrefix("OK joined lobby") else { throw LineClient.Timeout(description: "JOIN refused: \(reply)") }
        return greeted
    }

    @Test func droppedLinkKeepsTheHoldForTheReconnect() throws {
        let (server, log, alice, id, token, bob) = try Self.aliceAndBob(leaseMillis: 120_000)
        defer { server.stop() }
        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")

        // The link dies without a goodbye, and the server notices.
        alice.connection.close()
        #expect(log.waitFor { $0.contains("dropped holding [4] in lobby") } != nil)

        // Back with the token: the same player, still holding piece 4.
        let back = try LineClient(port: server.port, name: "alice-back")
        #expect(try PlayerIdentityTests.hello2(back, "alice", token: token).id == id)
        let (reply, lines) = try back.request("JOIN lobby")
        #expect(reply.hasPrefix("OK joined lobby id=\(id) "))
        let snapshot = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snapshot.state.holder(of: 4) == PlayerID(id))
        #expect(snapshot.state.players[PlayerID(id)]?.holding == [4])
        // DROP without a number names the held piece, as before the drop.
        #expect(try back.request("DRAG 0 0").reply.hasPrefix("OK dragged 4 "))
        #expect(try back.request("DROP").reply.hasPrefix("OK dropped 4 "))

        // Bob saw the piece held throughout: no return, no leave, no re-join.
        _ = try bob.request("PING")
        try bob.waitForEvent { $0.contains(" placed 4 \(id) ") }
        #expect(!bob.events.contains { $0.contains(" returned 4 ") || $0.contains(" left \(id)") || $0.contains(" joined \(id) ") })
    }

    @Test func aPlayerWhoDoesNotComeBackLosesTheHoldWhenTheLeaseEnds() throws {
        let (server, _, alice, id, token, bob) = try Self.aliceAndBob(leaseMillis: 300)
        defer { server.stop() }
        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")
        alice.connection.close()

        // The lease runs out (nothing renews it), then the player leaves.
        try bob.waitForEvent { $0.hasSuffix(" expired 4 \(id)") }
        try bob.waitForEvent { $0.hasSuffix(" left \(id)") }
        // Coming back later is an ordinary return: joined again, holding nothing.
        let back = try LineClient(port: server.port, name: "alice-back")
        _ = try Self.enter2(back, "alice", token: token)
        try bob.waitForEvent { $0.hasSuffix(" joined \(id) alice") }
        #expect(try back.request("DROP").reply.hasPrefix("ERR BAD_ARGS "))
    }

    /// Holding nothing, a link that blinks is no leave and join for the others.
    @Test func aDroppedLinkHoldingNothingIsNoLeaveForTheOthers() throws {
        let (server, log, alice, id, token, bob) = try Self.aliceAndBob(leaseMillis: 120_000)
        defer { server.stop() }
        alice.connection.close()
        #expect(log.waitFor { $0.contains("alice#\(id)") && $0.contains(" dropped in lobby") } != nil)
        let back = try LineClient(port: server.port, name: "alice-back")
        _ = try Self.enter2(back, "alice", token: token)
        #expect(try back.request("SAY back").reply == "OK said")
        try bob.waitForEvent { $0.hasSuffix(" say \(id) back") }
        #expect(!bob.events.contains { $0.contains(" left \(id)") || $0.contains(" joined \(id) ") }, "\(bob.events)")
    }

    /// Its name again without the token (a restarted client has none): the
    /// away player gives its place up instead of refusing the name.
    @Test func theSameNameWithoutTheTokenTakesTheAwayPlayersPlace() throws {
        let (server, log, alice, id, _, bob) = try Self.aliceAndBob(leaseMillis: 120_000)
        defer { server.stop() }
        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")
        alice.connection.close()
        #expect(log.waitFor { $0.contains("dropped holding [4] in lobby") } != nil)
        let restarted = try LineClient(port: server.port, name: "alice-new")
        let (newID, _) = try Self.enter2(restarted, "alice")
        #expect(newID != id)
        try bob.waitForEvent { $0.hasSuffix(" returned 4 \(id) left") }
        try bob.waitForEvent { $0.hasSuffix(" left \(id)") }
        try bob.waitForEvent { $0.hasSuffix(" joined \(newID) alice") }
        // A live player's name stays taken.
        let third = try LineClient(port: server.port, name: "alice-third")
        _ = try PlayerIdentityTests.hello2(third, "alice")
        #expect(try third.request("JOIN lobby").reply.hasPrefix("ERR NAME_TAKEN "))
    }

    /// Resumed on a new connection but not joined again, a QUIT ends the stay
    /// where the link dropped at once.
    @Test func aQuitOnTheResumedConnectionEndsTheStay() throws {
        let (server, log, alice, id, token, bob) = try Self.aliceAndBob(leaseMillis: 120_000)
        defer { server.stop() }
        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")
        alice.connection.close()
        #expect(log.waitFor { $0.contains("dropped holding [4] in lobby") } != nil)
        let back = try LineClient(port: server.port, name: "alice-back")
        _ = try PlayerIdentityTests.hello2(back, "alice", token: token)
        #expect(try back.request("QUIT").reply == "OK bye")
        try bob.waitForEvent { $0.hasSuffix(" returned 4 \(id) left") }
        try bob.waitForEvent { $0.hasSuffix(" left \(id)") }
    }

    /// Not back within the lease: the player leaves then.
    @Test func aDroppedPlayerHoldingNothingLeavesAfterALease() throws {
        let (server, log, alice, id, _, bob) = try Self.aliceAndBob(leaseMillis: 300)
        defer { server.stop() }
        alice.connection.close()
        try bob.waitForEvent { $0.hasSuffix(" left \(id)") }
        #expect(log.lines.contains { $0.contains("left lobby: did not come back within its lease") })
    }

    @Test func aResumeWhileTheOldLinkLooksAliveHandsTheHoldOver() throws {
        let log = LogLines()
        let server = try Self.server(leaseMillis: 120_000, log: log)
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let (id, token) = try Self.enter2(alice, "alice")
        #expect(try alice.request("GRAB 2").reply == "OK grabbed 2")
        let back = try LineClient(port: server.port, name: "alice-back")
        #expect(try PlayerIdentityTests.hello2(back, "alice", token: token).id == id)
        #expect(try alice.waitForClose().contains { $0.hasPrefix("BYE RESUMED") })
        let (reply, lines) = try back.request("JOIN lobby")
        #expect(reply.hasPrefix("OK joined lobby id=\(id) "))
        #expect(try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state.holder(of: 2) == PlayerID(id))
        #expect(try back.request("RELEASE").reply == "OK released 2")
    }

    @Test func aVersionOnePlayerStillReturnsItsPiecesAtOnce() throws {
        let log = LogLines()
        let server = try Self.server(leaseMillis: 120_000, log: log)
        defer { server.stop() }
        let carol = try LineClient(port: server.port, name: "carol")
        let id = try carol.enter(as: "carol")
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")
        #expect(try carol.request("GRAB 4").reply == "OK grabbed 4")
        carol.connection.close()
        try bob.waitForEvent { $0.hasSuffix(" returned 4 \(id) left") }
        try bob.waitForEvent { $0.hasSuffix(" left \(id)") }
    }

    @Test func aLeaveIsJournaled() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let id = try alice.enter(as: "alice")
        #expect(try alice.request("LEAVE").reply == "OK left lobby")
        let journal = try String(contentsOfFile: server.config.dataDirectory + "/rooms/lobby/journal", encoding: .utf8)
        #expect(journal.split(separator: "\n").contains { $0.contains(" left \(id) *") })
    }
}
