import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol

/// Issue 28 against a real server: parts joined on the table, held as one
/// under races, merged under concurrent drops, and kept through kill -9.
/// A 4x4 table is 40x24 units with the board at 12,4: x 0 to 8 is the margin.
@Suite struct ServerPartTests {
    static let rooms = [RoomSpec(name: "den", kind: .jigsaw, rows: 4, cols: 4, picture: "sunset")]

    /// GRAB, DRAG, DROP; returns the drop's reply.
    @discardableResult
    static func lay(_ piece: Int, _ x: Int, _ y: Int, _ c: LineClient) throws -> String {
        #expect(try c.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
        #expect(try c.request("DRAG \(piece) \(x) \(y)").reply.hasPrefix("OK dragged \(piece) "))
        return try c.request("DROP \(piece)").reply
    }

    /// The room as the server has it now (SYNC), decoded: decoding checks every part is sound.
    static func sync(_ c: LineClient) throws -> RoomState {
        let (reply, lines) = try c.request("SYNC")
        #expect(reply.hasPrefix("OK sync"))
        return try SnapshotCodec.decode(lines.map { $0[...] }, now: 0).state
    }

    @Test func aDropBesideANeighbourJoinsThemAndEveryoneIsTold() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        let ann = try a.enter("den", as: "ann")
        try b.enter("den", as: "bob")
        try Self.lay(0, 0, 0, a)
        // One unit off each way: it snaps into place.
        #expect(try Self.lay(1, 5, 1, a) == "OK dropped 1 table 4 0")
        let merged = try b.waitForEvent { $0.contains(" merged ") }
        #expect(merged.hasSuffix(" merged 1 0 \(ann)"), "\(merged)")
        let st = try Self.sync(b)
        #expect(st.parts.members[0] == [0, 1])
    }

    @Test func twoPlayersGrabbingTwoPiecesOfOnePartAtOnceExactlyOneWins() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        try a.enter("den", as: "ann")
        try b.enter("den", as: "bob")
        try Self.lay(0, 0, 0, a)
        try Self.lay(1, 4, 0, a)
        var wins = ["ann": 0, "bob": 0]
        for race in 0..<300 {
            // Both requests are on the wire before either reply is read.
            try a.send("GRAB 0")
            try b.send("GRAB 1")
            let ra = try a.awaitReply().reply, rb = try b.awaitReply().reply
            let aWon = ra == "OK grabbed 0", bWon = rb == "OK grabbed 1"
            #expect(aWon != bWon, "race \(race): \(ra) / \(rb)")
            let (winner, loser) = aWon ? (a, rb) : (b, ra)
            let name = aWon ? "ann" : "bob"
            #expect(loser.hasPrefix("ERR HELD piece \(aWon ? 1 : 0) is held by \(name) (#"), "race \(race): \(loser)")
            wins[name, default: 0] += 1
            #expect(try winner.request("RELEASE").reply.hasPrefix("OK released"))
            a.events.removeAll(); b.events.removeAll()
        }
        #expect(wins["ann"]! + wins["bob"]! == 300)
        #expect(replyFields(try a.request("DIGEST").reply)["held"] == "0")
    }

    @Test func concurrentDropsMergeIntoOnePartThatEveryMirrorAgreesOn() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        let c = try LineClient(port: server.port, name: "c")
        try a.enter("den", as: "ann")
        try b.enter("den", as: "bob")
        try c.enter("den", as: "cat")
        let start = try Self.sync(c)
        c.events.removeAll()
        try Self.lay(0, 0, 4, a)
        // Ann drops 1 right of 0 while bob drops 4 below it: both join 0's part.
        for (client, piece, x, y) in [(a, 1, 4, 4), (b, 4, 0, 8)] {
            try client.send("GRAB \(piece)\nDRAG \(piece) \(x) \(y)\nDROP \(piece)")
        }
        for client in [a, b] {
            for _ in 0..<3 { #expect(try client.awaitReply().reply.hasPrefix("OK ")) }
        }
        // Then both carry the part at once: exactly one gets it.
        try a.send("GRAB 1")
        try b.send("GRAB 4")
        let ra = try a.awaitReply().reply, rb = try b.awaitReply().reply
        #expect((ra == "OK grabbed 1") != (rb == "OK grabbed 4"), "\(ra) / \(rb)")
        let (holder, grip) = ra == "OK grabbed 1" ? (a, 1) : (b, 4)
        #expect(try holder.request("DRAG \(grip) \(grip == 1 ? 8 : 4) \(grip == 1 ? 12 : 16)").reply.hasPrefix("OK dragged"))
        #expect(try holder.request("DROP \(grip)").reply.hasPrefix("OK dropped \(grip) table"))
        let server1 = try Self.sync(c)
        #expect(server1.parts.members[0] == [0, 1, 4])
        #expect(server1.pieces[0].location == .table(Point(x: 4, y: 12)))
        // A mirror of the JOIN snapshot with every event applied is the server's room.
        let digest = replyFields(try c.request("DIGEST").reply)
        var mirror = start
        for line in c.events {
            guard case .room(let event)? = EventCodec.decode(line[...]) else { continue }
            try mirror.apply(event)
        }
        #expect(mirror.digest.description == digest["value"], "\(c.events)")
        #expect(mirror.parts == server1.parts)
    }

    @Test func aPartGoesIntoTheBoardWholeAndComesApart() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a")
        try a.enter("den", as: "ann")
        try Self.lay(0, 0, 4, a)
        try Self.lay(1, 4, 4, a)
        #expect(try a.request("GRAB 1").reply == "OK grabbed 1")
        // Piece 1 over its own cell (0,1) at 16,4: the part's target is that cell.
        #expect(try a.request("DRAG 1 16 4").reply == "OK dragged 1 16 4 0,1")
        #expect(try a.request("DROP 1").reply == "OK dropped 1 cell 0 1")
        let st = try Self.sync(a)
        #expect(st.occupant(of: Cell(row: 0, col: 0)) == 0 && st.occupant(of: Cell(row: 0, col: 1)) == 1 && st.parts.isEmpty)
    }

    @Test func placeShapeIsARoomOptionAndOwnTheDefault() throws {
        let server = try TestServer(rooms: Self.rooms + [RoomSpec(name: "old", kind: .jigsaw, rows: 3, cols: 3, placement: .shape)])
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a")
        // Version 2: the room line carries place= (version 1's has none).
        _ = try PlayerIdentityTests.hello2(a, "ann")
        #expect(try a.request("JOIN den").reply.hasPrefix("OK joined den"))
        #expect(try Self.sync(a).settings.placement == .own)
        #expect(try a.request("CREATE fit jigsaw 3x3 place=shape").reply == "OK created fit")
        #expect(try a.request("CREATE bad jigsaw 3x3 place=any").reply.hasPrefix("ERR BAD_ARGS place must be own or shape"))
        #expect(try a.request("LEAVE").reply.hasPrefix("OK"))
        for room in ["fit", "old"] {
            #expect(try a.request("JOIN \(room)").reply.hasPrefix("OK joined \(room)"))
            #expect(try Self.sync(a).settings.placement == .shape)
            #expect(try a.request("LEAVE").reply.hasPrefix("OK"))
        }
    }
}

/// kill -9 while parts are being merged: every acknowledged join is back
/// after the restart (joins are journaled before the drop is acknowledged).
@Suite(.serialized) struct PartDurabilityTests {
    @Test func killNineRightAfterMergingDropsKeepsEveryAcknowledgedPart() throws {
        let data = TestServer.temporaryDirectory()
        let room = "crash jigsaw 4x4"
        var server = try ServerProcess(dataDirectory: data, rooms: [room])
        var (client, _) = try DurabilityTests.join(server, room: "crash")
        // One at a time, killed right after the OK of the drop that joined 0, 1 and 4.
        try ServerPartTests.lay(0, 0, 4, client)
        try ServerPartTests.lay(1, 4, 4, client)
        #expect(try ServerPartTests.lay(4, 1, 9, client) == "OK dropped 4 table 0 8")
        try server.kill()

        server = try ServerProcess(dataDirectory: data, rooms: [room])
        var state: RoomState
        (client, state) = try DurabilityTests.join(server, room: "crash")
        #expect(state.parts.members[0] == [0, 1, 4])
        #expect(state.pieces[4].location == .table(Point(x: 0, y: 8)))
        // Pipelined: the part carried away and 5 joined to it, killed after the last OK.
        try client.sendRaw(Array("GRAB 0\nDRAG 0 4 12\nDROP 0\nGRAB 5\nDRAG 5 8 17\nDROP 5\n".utf8))
        var replies: [String] = []
        for _ in 0..<6 { replies.append(try client.awaitReply().reply) }
        try server.kill()
        #expect(replies[2] == "OK dropped 0 table 4 12" && replies[5] == "OK dropped 5 table 8 16", "\(replies)")

        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try DurabilityTests.join(server, room: "crash")
        #expect(state.parts.members[0] == [0, 1, 4, 5])
        #expect(state.pieces[5].location == .table(Point(x: 8, y: 16)) && state.pieces[0].location == .table(Point(x: 4, y: 12)))
        try server.kill()
    }
}
