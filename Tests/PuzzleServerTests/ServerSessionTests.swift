import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleServer
@testable import PuzzleSystem

@Suite struct ServerSessionTests {
    @Test func pingAnswersPongBeforeAnything() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port)
        #expect(try a.request("PING").reply == "PONG")
        #expect(try a.request("PING hello there").reply == "PONG hello there")
    }

    @Test func joinGivesEverythingNeededToDraw() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port)
        _ = try a.hello("alice")
        let (reply, state) = try a.request("JOIN lobby")
        #expect(reply.hasPrefix("OK joined lobby"))
        let snap = try SnapshotCodec.decode(state.map { Substring($0) }, now: 0)
        #expect(snap.name == "lobby" && snap.state.pieceCount == 9 && snap.picture != nil)
        #expect(snap.state.players.values.map(\.name) == ["alice"])
        let digest = try a.request("DIGEST").reply
        #expect(replyFields(digest)["value"] == snap.state.digest.description)
    }

    @Test func dragReachesEveryMemberWithTheSameDropTarget() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b"), c = try LineClient(port: server.port, name: "c")
        let aid = try a.enter(as: "alice")
        try b.enter(as: "bob")
        try c.enter(as: "carol")
        #expect(try a.request("GRAB 4").reply == "OK grabbed 4")
        // Board origin is at 2 cells of margin (3x3 board: margin 2) = 8 units; cell (1,1) at 12,12.
        let reply = try a.request("DRAG 4 12 12").reply
        #expect(reply == "OK dragged 4 12 12 1,1")
        for client in [b, c] {
            let ev = try client.waitForEvent { $0.contains(" dragged 4 ") }
            #expect(ev.hasSuffix("dragged 4 \(aid) 12 12 1,1"))
        }
        #expect(try a.request("DROP").reply == "OK dropped 4 cell 1 1")
        for client in [b, c] { try client.waitForEvent { $0.hasSuffix("placed 4 \(aid) cell 1 1 0") } }
    }

    @Test func disconnectingWhileHoldingReleasesThePieceForEveryone() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        let aid = try a.enter(as: "alice")
        try b.enter(as: "bob")
        #expect(try a.request("GRAB 2").reply == "OK grabbed 2")
        #expect(try b.request("GRAB 2").reply.hasPrefix("ERR HELD piece 2 is held by alice"))
        a.close()
        try b.waitForEvent { $0.hasSuffix("returned 2 \(aid) left") }
        try b.waitForEvent { $0.hasSuffix("left \(aid)") }
        #expect(try b.request("GRAB 2").reply == "OK grabbed 2")
    }

    @Test func leaseExpiryReleasesThePieceForEveryone() throws {
        let server = try TestServer { $0.leaseMillis = 300 }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        let aid = try a.enter(as: "alice")
        try b.enter(as: "bob")
        #expect(try a.request("GRAB 1").reply == "OK grabbed 1")
        try b.waitForEvent { $0.hasSuffix("expired 1 \(aid)") }
        try a.waitForEvent { $0.hasSuffix("expired 1 \(aid)") }
        #expect(try a.request("DROP 1").reply.hasPrefix("ERR NOT_HOLDER"))
    }

    @Test func solvingTogetherReachesEveryoneAndNextStartsAHarderPuzzle() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "tiles", kind: .swap, rows: 2, cols: 2, picture: "quilt", rotation: false, password: nil)])
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        try a.enter("tiles", as: "alice")
        _ = try b.hello("bob")
        let (_, state) = try b.request("JOIN tiles")
        var room = try SnapshotCodec.decode(state.map { Substring($0) }, now: 0).state
        #expect(try a.request("NEXT").reply.hasPrefix("ERR NOT_SOLVED"))
        // Play the solution from the snapshot: move each misplaced tile home.
        for piece in 0..<4 where !room.isCorrect(piece) {
            let player = piece % 2 == 0 ? a : b
            let home = room.geometry.origin(of: room.homeCell(of: piece))
            #expect(try player.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            #expect(try player.request("DRAG \(home.x) \(home.y)").reply.hasPrefix("OK dragged"))
            #expect(try player.request("DROP").reply.hasPrefix("OK dropped \(piece) swapped"))
            let (_, s) = try b.request("SYNC")
            room = try SnapshotCodec.decode(s.map { Substring($0) }, now: 0).state
        }
        try a.waitForEvent { $0.contains(" solved 0 ") }
        try b.waitForEvent { $0.contains(" solved 0 ") }
        #expect(try b.request("NEXT").reply == "OK next 1 swap 3x3")
        // The room cycles its pictures: the next puzzle shows another.
        let next = try a.waitForEvent { $0.contains(" next 1 swap 3x3 off ") }
        #expect(!next.hasSuffix(" quilt"), "\(next)")
    }

    @Test func createJoinWithPasswordAndList() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port)
        _ = try a.hello("alice")
        #expect(try a.request("CREATE den swap 3x4 picture=rings password=s3cret").reply == "OK created den")
        #expect(try a.request("CREATE den swap 3x4").reply.hasPrefix("ERR ROOM_EXISTS"))
        let (reply, lines) = try a.request("ROOMS")
        #expect(reply == "OK rooms 2")
        let den = listedRooms(lines)["den"]
        #expect(den?.kind == .swap && den?.rows == 3 && den?.cols == 4 && den?.password == true, "\(lines)")
        #expect(try a.request("JOIN den wrong").reply.hasPrefix("ERR BAD_PASSWORD"))
        #expect(try a.request("JOIN den").reply == "ERR BAD_PASSWORD room 'den' needs a password: JOIN den <password>")
        #expect(try a.request("JOIN den s3cret").reply.hasPrefix("OK joined den"))
        let (who, players) = try a.request("WHO")
        #expect(who == "OK who 1" && players.count == 1 && players[0].contains(" alice "))
        #expect(try a.request("LEAVE").reply == "OK left den")
        #expect(try a.request("GRAB 0").reply.hasPrefix("ERR NOT_JOINED"))
    }

    @Test func chatReachesTheRoom() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        let aid = try a.enter(as: "alice")
        try b.enter(as: "bob")
        #expect(try a.request("SAY hello  there, bob!").reply == "OK said")
        let line = try b.waitForEvent { $0.contains(" say ") }
        guard case .say(_, let p, let text)? = EventCodec.decode(Substring(line)) else { Issue.record("not a say event: \(line)"); return }
        #expect(p.rawValue == aid && text == "hello  there, bob!")
    }

    @Test func statsReportCounters() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port)
        try a.enter(as: "alice")
        let fields = replyFields(try a.request("STATS").reply)
        #expect(fields["connections"] == "1" && fields["rooms"] == "1" && fields["players"] == "1")
        #expect(fields["bytes_out"] != nil && fields["slow_disconnects"] == "0" && fields["moves_per_sec"] != nil)
    }

    @Test func listensOnIPv6AndIPv4() throws {
        let server = try TestServer { $0.bind = "::" }
        let v6 = try LineClient(port: server.port, name: "v6", host: "::1")
        let v4 = try LineClient(port: server.port, name: "v4", host: "127.0.0.1")
        try v6.enter(as: "six")
        try v4.enter(as: "four")
        #expect(try v6.request("WHO").state.count == 2)
    }

    @Test func quitSaysByeAndCloses() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port)
        #expect(try a.request("QUIT").reply == "OK bye")
        #expect(try a.waitForClose().isEmpty)
    }

    @Test func halfClosedClientGetsItsRepliesThenTheClose() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port)
        try a.sendRaw(Array("PING 1\nHELLO 1 zed\nPING 2\n".utf8))
        try a.socket.shutdown(.write)
        let lines = try a.waitForClose()
        #expect(lines.count == 3 && lines[0] == "PONG 1" && lines[1].hasPrefix("OK hello") && lines[2] == "PONG 2")
    }
}

@Suite struct ServerHalfCloseTests {
    /// A client that half-closes with replies queued and does not read them yet
    /// must not hold up anyone else; it gets everything, then the close.
    @Test func halfClosedNonReaderDoesNotStallOthers() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port, name: "a")
        try a.socket.setReceiveBufferSize(4096)
        let pings = (0..<3000).map { "PING \($0)\n" }.joined()
        try a.sendRaw(Array(pings.utf8))
        try a.socket.shutdown(.write)
        let b = try LineClient(port: server.port, name: "b")
        try b.enter(as: "bob")
        for i in 0..<200 {
            #expect(try b.request("PING b\(i)").reply == "PONG b\(i)")
        }
        let lines = try a.waitForClose(timeout: 30)
        #expect(lines.count == 3000 && lines.first == "PONG 0" && lines.last == "PONG 2999", "\(lines.count) lines: \(lines.prefix(2)) … \(lines.suffix(2))")
    }
}
