import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// Over real sockets (issue 16, spoiler 7): NEXT takes another picture from
/// the server's library, unless the room fixed its picture; the setting
/// survives a restart.
@Suite(.serialized) struct ServerPictureCycleTests {
    /// Solves the room's current swap puzzle from snapshots (each misplaced
    /// tile dropped on its home cell), then asks for the next one; returns
    /// the `next` event's picture.
    static func solveAndNext(_ c: LineClient) throws -> String {
        while true {
            let (_, lines) = try c.request("SYNC")
            let room = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
            guard let piece = (0..<room.pieceCount).first(where: { !room.isCorrect($0) }) else { break }
            let home = room.geometry.origin(of: room.homeCell(of: piece))
            #expect(try c.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            #expect(try c.request("DRAG \(home.x) \(home.y)").reply.hasPrefix("OK dragged"))
            #expect(try c.request("DROP").reply.hasPrefix("OK dropped \(piece) swapped"))
        }
        #expect(try c.request("NEXT").reply.hasPrefix("OK next "))
        let event = try c.waitForEvent { $0.contains(" next ") }
        return String(event.split(separator: " ").last ?? "")
    }

    @Test func threeNextsShowPicturesThatDifferFromTheirPredecessors() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "tiles", kind: .swap, rows: 2, cols: 2, picture: "quilt")])
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        _ = try PlayerIdentityTests.hello2(c, "alice")
        #expect(try c.request("JOIN tiles").reply.hasPrefix("OK joined tiles"))
        var shown = ["quilt"]
        for _ in 0..<3 { shown.append(try Self.solveAndNext(c)) }
        for i in 1..<shown.count { #expect(shown[i] != shown[i - 1], "\(shown)") }
        // The snapshot shows the new picture by its hash, and PICTURE its pixels.
        let (_, lines) = try c.request("SYNC")
        #expect(lines[0].contains(" picture=\(shown[3]) ") && lines[0].contains(" pictures=cycle"), "\(lines[0])")
        let snapshot = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        let expected = try #require(Picture.builtin(shown[3], width: 40, height: 40))
        #expect(snapshot.pictureHash == expected.contentHashHex)
        #expect(try ServerCompactJoinTests.fetchPicture(c) == expected)
    }

    @Test func aFixedRoomKeepsItsPictureAcrossARestart() throws {
        let data = TestServer.temporaryDirectory()
        do {
            let server = try TestServer(rooms: [], dataDirectory: data)
            defer { server.stop() }
            let c = try LineClient(port: server.port, name: "c")
            _ = try c.hello("alice")
            #expect(try c.request("CREATE still swap 2x2 picture=waves pictures=fixed").reply == "OK created still")
            #expect(try c.request("CREATE moving swap 2x2 picture=waves").reply == "OK created moving")
            #expect(try c.request("JOIN still").reply.hasPrefix("OK joined still"))
            #expect(try Self.solveAndNext(c) == "waves")
        }
        // Restarted on the same data: the rooms keep their settings.
        let server = try TestServer(rooms: [], dataDirectory: data)
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        let (_, _) = try PlayerIdentityTests.hello2(c, "alice")
        let (_, lines) = try c.request("JOIN still")
        #expect(lines[0].contains(" picture=waves ") && lines[0].contains(" pictures=fixed"), "\(lines[0])")
        #expect(try Self.solveAndNext(c) == "waves")
        #expect(try c.request("JOIN moving").state[0].contains(" pictures=cycle"))
        #expect(try Self.solveAndNext(c) != "waves")
    }
}

/// The box lid room setting (issue 16): on the extended room line, by kind
/// unless the room says, kept across a restart.
@Suite(.serialized) struct ServerLidTests {
    static func roomLine(_ c: LineClient, _ room: String) throws -> String {
        let (reply, lines) = try c.request("JOIN \(room)")
        #expect(reply.hasPrefix("OK joined \(room)"), "\(reply)")
        return lines.first ?? ""
    }

    @Test func theLidIsOnForJigsawOffForSwapUnlessTheRoomSaysAndSurvivesARestart() throws {
        let data = TestServer.temporaryDirectory()
        do {
            let server = try TestServer(rooms: [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3),
                                                RoomSpec(name: "tiles", kind: .swap, rows: 3, cols: 3),
                                                RoomSpec(name: "dark", kind: .jigsaw, rows: 3, cols: 3, lid: false)],
                                        dataDirectory: data)
            defer { server.stop() }
            let c = try LineClient(port: server.port, name: "c")
            _ = try PlayerIdentityTests.hello2(c, "alice")
            #expect(try c.request("CREATE lit swap 2x2 lid=on").reply == "OK created lit")
            #expect(try c.request("CREATE odd swap 2x2 lid=ajar").reply.hasPrefix("ERR BAD_ARGS lid must be on or off"))
            for (room, lid) in [("lobby", "on"), ("tiles", "off"), ("dark", "off"), ("lit", "on")] {
                #expect(try Self.roomLine(c, room).contains(" lid=\(lid) "), "\(room)")
            }
        }
        let server = try TestServer(rooms: [], dataDirectory: data)
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        _ = try PlayerIdentityTests.hello2(c, "alice")
        for (room, lid) in [("lobby", "on"), ("tiles", "off"), ("dark", "off"), ("lit", "on")] {
            #expect(try Self.roomLine(c, room).contains(" lid=\(lid) "), "\(room) after the restart")
        }
    }
}
