import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// PACE and EVENTS over real sockets (issue 30): a member that draws at most
/// every so often gets the room's drags that often, the newest per piece, and
/// one that follows its room by snapshots gets none of its events but its talk.
/// Requests are pipelined in one write, so that one loop turn handles them
/// (a paced member's drags go out a pace after that turn, not during it).
@Suite(.serialized) struct PacedMembersTests {
    static func server() throws -> TestServer {
        try TestServer(rooms: [
            RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil),
            RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil),
            RoomSpec(name: "turn", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: true, password: nil),
        ])
    }

    /// Alice and bob (version 2) in the lobby; alice's id.
    static func aliceAndBob(_ server: TestServer) throws -> (alice: LineClient, aliceID: Int, bob: LineClient) {
        let alice = try LineClient(port: server.port, name: "alice")
        let aliceID = try HoldAcrossReconnectTests.enter2(alice, "alice").id
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try HoldAcrossReconnectTests.enter2(bob, "bob")
        return (alice, aliceID, bob)
    }

    /// Sends `lines` in one write and returns their replies, in order.
    static func pipelined(_ client: LineClient, _ lines: [String]) throws -> [String] {
        try client.sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8))
        return try lines.map { _ in try client.awaitReply().reply }
    }

    @Test func aPacedMemberGetsEachPiecesNewestDragOncePerPaceAndEverythingElseAtOnce() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (alice, aliceID, bob) = try Self.aliceAndBob(server)
        #expect(try bob.request("PACE 1000").reply == "OK pace 1000")

        let replies = try Self.pipelined(alice, ["GRAB 4"] + (1...6).map { "DRAG \($0) 2" } + ["SAY done"])
        #expect(replies.first == "OK grabbed 4")
        #expect(replies.last == "OK said")
        // The grab and the chat come at once; the drags are held for the pace.
        try bob.waitForEvent { $0.contains(" say \(aliceID) done") }
        #expect(bob.events.contains { $0.contains(" grabbed 4 \(aliceID)") })
        #expect(!bob.events.contains { $0.contains(" dragged ") }, "\(bob.events)")
        // Then the newest alone.
        let drag = try bob.waitForEvent { $0.contains(" dragged ") }
        #expect(drag.contains(" dragged 4 \(aliceID) 6 2 "), "\(drag)")
        // Alice, unpaced, had every one.
        #expect(try alice.request("PING").reply == "PONG")
        #expect(alice.events.filter { $0.contains(" dragged 4 ") }.count == 6)
        // Pace off: drags come as they are made again.
        #expect(try bob.request("PACE 0").reply == "OK pace 0")
        #expect(try alice.request("DRAG 7 2").reply.hasPrefix("OK dragged 4 7 2"))
        try bob.waitForEvent { $0.contains(" dragged 4 \(aliceID) 7 2 ") }
    }

    /// A drop (any later event about the piece) makes a held drag stale: it
    /// is never sent. Held drags go out in order with later ones, so a later
    /// drag of another piece arriving says the stale one is not coming.
    @Test func aHeldDragALaterEventAboutItsPieceOverridesIsNeverSent() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (alice, aliceID, bob) = try Self.aliceAndBob(server)
        #expect(try bob.request("PACE 200").reply == "OK pace 200")

        let replies = try Self.pipelined(alice, ["GRAB 4", "DRAG 1 2", "DRAG 2 2", "DRAG 3 2", "DROP"])
        #expect(replies.last?.hasPrefix("OK dropped 4 ") == true, "\(replies)")
        try bob.waitForEvent { $0.contains(" placed 4 \(aliceID) ") }
        #expect(try alice.request("GRAB 5").reply == "OK grabbed 5")
        #expect(try alice.request("DRAG 9 9").reply.hasPrefix("OK dragged 5 9 9"))
        try bob.waitForEvent { $0.contains(" dragged 5 \(aliceID) 9 9 ") }
        #expect(!bob.events.contains { $0.contains(" dragged 4 ") }, "\(bob.events)")
    }

    /// A rotation says nothing of where its piece is: the held drag goes
    /// right before it, not a pace later, and is not dropped.
    @Test func aRotationSendsItsPiecesHeldDragFirst() throws {
        let server = try Self.server()
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let aliceID = try PlayerIdentityTests.hello2(alice, "alice").id
        #expect(try alice.request("JOIN turn").reply.hasPrefix("OK joined turn"))
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try PlayerIdentityTests.hello2(bob, "bob")
        #expect(try bob.request("JOIN turn").reply.hasPrefix("OK joined turn"))
        #expect(try bob.request("PACE 1000").reply == "OK pace 1000")
        let replies = try Self.pipelined(alice, ["GRAB 4", "DRAG 1 2", "DRAG 3 2", "ROTATE"])
        #expect(replies.last?.hasPrefix("OK rotated 4 ") == true, "\(replies)")
        let start = bob.events.count
        try bob.waitForEvent { $0.contains(" rotated 4 \(aliceID) ") }
        let before = Array(bob.events[start...])
        #expect(before.filter { $0.contains(" dragged 4 ") }.count == 1, "\(before)")
        #expect(before.last?.contains(" dragged 4 \(aliceID) 3 2 ") == true, "\(before)")
    }

    /// Held drags are about the room they were made in: a member that left it
    /// is never sent them (not after its `OK left`, nor in its next room).
    @Test func heldDragsGoWithTheRoomLeft() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (alice, _, bob) = try Self.aliceAndBob(server)
        let carol = try LineClient(port: server.port, name: "carol")
        let carolID = try PlayerIdentityTests.hello2(carol, "carol").id
        #expect(try carol.request("JOIN den").reply.hasPrefix("OK joined den"))
        #expect(try bob.request("PACE 1000").reply == "OK pace 1000")

        let replies = try Self.pipelined(alice, ["GRAB 4", "DRAG 1 2", "DRAG 2 2"])
        #expect(replies[2].hasPrefix("OK dragged 4 2 2"), "\(replies)")
        try bob.waitForEvent { $0.contains(" grabbed 4 ") }
        // Version 2's JOIN while in a room: a switch, leaving the lobby.
        #expect(try bob.request("JOIN den").reply.hasPrefix("OK joined den"))
        #expect(try carol.request("GRAB 0").reply == "OK grabbed 0")
        #expect(try carol.request("DRAG 5 5").reply.hasPrefix("OK dragged 0 5 5"))
        try bob.waitForEvent { $0.contains(" dragged 0 \(carolID) 5 5 ") }
        #expect(!bob.events.contains { $0.contains(" dragged 4 ") }, "\(bob.events)")
    }

    /// EVENTS off: chat and watchers only; SYNC shows the room as it went on;
    /// EVENTS on: events from the next.
    @Test func withItsEventsOffAMemberGetsTheRoomsTalkAndFollowsItBySync() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (alice, aliceID, bob) = try Self.aliceAndBob(server)
        let seen = bob.events.count
        #expect(try bob.request("EVENTS off").reply == "OK events off")

        let replies = try Self.pipelined(alice, ["GRAB 4", "DRAG 1 2", "DROP", "SAY hello"])
        #expect(replies.last == "OK said", "\(replies)")
        let watcher = try LineClient(port: server.port, name: "watcher")
        let watcherID = try PlayerIdentityTests.hello2(watcher, "watcher").id
        #expect(try watcher.request("WATCH lobby").reply.hasPrefix("OK watching lobby"))
        try bob.waitForEvent { $0.contains(" watching \(watcherID) watcher") }
        // Besides the watcher's line (taken by the wait), the chat alone.
        let since = Array(bob.events[seen...])
        #expect(since.count == 1, "\(since)")
        #expect(since.first?.contains(" say \(aliceID) hello") == true, "\(since)")

        // The room as it went on.
        let (reply, lines) = try bob.request("SYNC")
        #expect(reply.hasPrefix("OK sync seq="))
        let snapshot = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snapshot.state.seq > 0)
        guard case .table = snapshot.state.pieces[4].location else {
            Issue.record("piece 4 is not on the table: \(snapshot.state.pieces[4])")
            return
        }
        #expect(try bob.request("EVENTS on").reply == "OK events on")
        #expect(try alice.request("GRAB 5").reply == "OK grabbed 5")
        try bob.waitForEvent { $0.contains(" grabbed 5 \(aliceID)") }
    }

    @Test func paceAndEventsAreVersionTwosAndCheckTheirArguments() throws {
        let server = try Self.server()
        defer { server.stop() }
        let old = try LineClient(port: server.port, name: "old")
        try old.enter(as: "old")
        #expect(try old.request("PACE 33").reply.hasPrefix("ERR BAD_VERSION PACE needs protocol version 2"))
        #expect(try old.request("EVENTS off").reply.hasPrefix("ERR BAD_VERSION EVENTS needs protocol version 2"))
        let new = try LineClient(port: server.port, name: "new")
        _ = try PlayerIdentityTests.hello2(new, "new")
        #expect(try new.request("PACE 1001").reply.hasPrefix("ERR BAD_NUMBER "))
        #expect(try new.request("PACE -1").reply.hasPrefix("ERR BAD_NUMBER "))
        #expect(try new.request("PACE").reply.hasPrefix("ERR BAD_ARGS usage: PACE <ms>"))
        #expect(try new.request("EVENTS maybe").reply.hasPrefix("ERR BAD_ARGS usage: EVENTS on|off"))
        // Before any room: a setting of the connection, kept for the room joined later.
        #expect(try new.request("PACE 0").reply == "OK pace 0")
        #expect(try new.request("EVENTS OFF").reply == "OK events off")
    }
}
