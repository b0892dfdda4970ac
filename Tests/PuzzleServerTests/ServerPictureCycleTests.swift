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
        // The snapshot shows the new picture, and its pixels.
        let (_, lines) = try c.request("SYNC")
        #expect(lines[0].contains(" picture=\(shown[3]) ") && lines[0].contains(" pictures=cycle"), "\(lines[0])")
        let snapshot = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snapshot.picture == Picture.builtin(shown[3], width: 40, height: 40))
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
        #expect(lines[0].contains(" picture=waves ") && lines[0].hasSuffix(" pictures=fixed"), "\(lines[0])")
        #expect(try Self.solveAndNext(c) == "waves")
        #expect(try c.request("JOIN moving").state[0].hasSuffix(" pictures=cycle"))
        #expect(try Self.solveAndNext(c) != "waves")
    }
}
