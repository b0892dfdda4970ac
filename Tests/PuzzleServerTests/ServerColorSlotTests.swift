import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// Colour slots over real sockets (issue 16, spoiler 4): ids grow across the
/// server, but players present in one room never share a colour.
@Suite(.serialized) struct ServerColorSlotTests {
    @Test func playersOneAndNineInOneRoomGetDifferentSlotsAndALeaveFreesOne() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let (aliceID, _) = try PlayerIdentityTests.hello2(alice, "alice")
        #expect(aliceID == 1)
        #expect(try alice.request("JOIN lobby").reply.hasPrefix("OK joined lobby"))
        // Players 2 to 8 come and go elsewhere (they say HELLO and nothing more).
        var others: [LineClient] = []
        for n in 2...8 {
            let c = try LineClient(port: server.port, name: "p\(n)")
            #expect(try c.hello("p\(n)") == n)
            others.append(c)
        }
        let erin = try LineClient(port: server.port, name: "erin")
        let (erinID, _) = try PlayerIdentityTests.hello2(erin, "erin")
        #expect(erinID == 9)
        let joined = try erin.request("JOIN lobby")
        #expect(joined.reply.hasPrefix("OK joined lobby"))
        #expect(joined.state.contains("S color 1 0") && joined.state.contains("S color 9 1"), "\(joined.state.filter { $0.hasPrefix("S color") })")
        let snapshot = try SnapshotCodec.decode(joined.state.map { Substring($0) }, now: 0)
        #expect(snapshot.state.colorSlots == [PlayerID(1): 0, PlayerID(9): 1])

        // Alice leaves: her slot is free for the next arrival; erin keeps hers.
        #expect(try alice.request("LEAVE").reply == "OK left lobby")
        let frank = try LineClient(port: server.port, name: "frank")
        let (frankID, _) = try PlayerIdentityTests.hello2(frank, "frank")
        let after = try frank.request("JOIN lobby").state
        #expect(after.contains("S color \(frankID) 0") && after.contains("S color 9 1"), "\(after.filter { $0.hasPrefix("S color") })")
        // A version 1 snapshot is as it was: no colour lines.
        #expect(try others[0].request("JOIN lobby").state.allSatisfy { !$0.hasPrefix("S color") })
    }

    /// The slots a JOIN's snapshot gives, by id.
    static func slots(_ state: [String]) throws -> [PlayerID: Int] {
        try SnapshotCodec.decode(state.map { Substring($0) }, now: 0).state.colorSlots
    }

    /// Issue 29: colours stay with people. alice, bob and dave play in the
    /// lobby (slots 0, 1, 2); the server restarts on the same data directory
    /// and they come back in another order, each in its own colour (the
    /// `joined` event names a slot that is not the lowest free); in another
    /// room a player keeps its colour unless someone there has it, and the
    /// colour it then gets is its own from then on, also after a restart.
    @Test func coloursStayWithPlayersAcrossARestartAndARoomSwitch() throws {
        let data = TestServer.temporaryDirectory()
        let rooms = [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil),
                     RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)]
        var server = try TestServer(rooms: rooms, dataDirectory: data)
        var tokens: [String: String] = [:], ids: [String: PlayerID] = [:]
        var clients: [LineClient] = []
        for name in ["alice", "bob", "dave"] {
            let c = try LineClient(port: server.port, name: name)
            let (id, token) = try PlayerIdentityTests.hello2(c, name)
            (tokens[name], ids[name]) = (token, PlayerID(id))
            #expect(try c.request("JOIN lobby").reply.hasPrefix("OK joined lobby"))
            clients.append(c)
        }
        let (alice, bob, dave) = (try #require(ids["alice"]), try #require(ids["bob"]), try #require(ids["dave"]))
        let before = try Self.slots(try clients[2].request("SYNC").state)
        #expect(before == [alice: 0, bob: 1, dave: 2])
        for c in clients { c.close() }
        server.stop()

        // Restarted: dave first, then bob, then alice. Before issue 29 dave
        // came back in slot 0 (alice's), bob in 1, alice in 2.
        server = try TestServer(rooms: rooms, dataDirectory: data)
        func back(_ name: String) throws -> LineClient {
            let c = try LineClient(port: server.port, name: name + "-back")
            _ = try PlayerIdentityTests.hello2(c, name, token: tokens[name])
            return c
        }
        let daveBack = try back("dave")
        let first = try daveBack.request("JOIN lobby")
        #expect(first.reply.hasPrefix("OK joined lobby"))
        #expect(try Self.slots(first.state) == [dave: 2])
        let bobBack = try back("bob")
        #expect(try Self.slots(try bobBack.request("JOIN lobby").state) == [dave: 2, bob: 1])
        // dave's mirror learns bob's slot from the event: 1 is not the lowest free (0).
        #expect(try daveBack.waitForEvent { $0.contains(" joined ") } == "EV \(try Self.seq(first.reply) + 1) joined \(bob.rawValue) bob color=1")
        let aliceBack = try back("alice")
        #expect(try Self.slots(try aliceBack.request("JOIN lobby").state) == [dave: 2, bob: 1, alice: 0])
        // 0 is the lowest free: the event reads as it always did.
        #expect(try daveBack.waitForEvent { $0.contains(" joined \(alice.rawValue) ") }.hasSuffix(" joined \(alice.rawValue) alice"))

        // Another room: erin, new, takes slot 0 there; dave switches and keeps
        // his 2; alice's 0 is erin's, so she takes the lowest free, 1.
        let erin = try LineClient(port: server.port, name: "erin")
        let erinID = PlayerID(try PlayerIdentityTests.hello2(erin, "erin").id)
        #expect(try Self.slots(try erin.request("JOIN den").state) == [erinID: 0])
        #expect(try Self.slots(try daveBack.request("JOIN den").state) == [erinID: 0, dave: 2])
        #expect(try Self.slots(try aliceBack.request("JOIN den").state) == [erinID: 0, dave: 2, alice: 1])
        for c in [daveBack, bobBack, aliceBack, erin] { c.close() }
        server.stop()

        // 1 is alice's colour now: after another restart she takes it again
        // in the lobby, arriving first, rather than the lowest free (0).
        server = try TestServer(rooms: rooms, dataDirectory: data)
        defer { server.stop() }
        let aliceAgain = try back("alice")
        #expect(try Self.slots(try aliceAgain.request("JOIN lobby").state) == [alice: 1])
        // A version 1 player, new every time, takes the lowest free one.
        let v1 = try LineClient(port: server.port, name: "v1")
        let v1ID = PlayerID(try v1.hello("zed"))
        #expect(try v1.request("JOIN lobby").reply.hasPrefix("OK joined lobby"))
        #expect(try Self.slots(try aliceAgain.request("SYNC").state) == [alice: 1, v1ID: 0])
    }

    static func seq(_ reply: String) throws -> UInt64 {
        let word = reply.split(separator: " ").first { $0.hasPrefix("seq=") }
        return try #require(word.flatMap { UInt64($0.dropFirst(4)) })
    }
}
