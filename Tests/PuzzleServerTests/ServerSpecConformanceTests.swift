import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleProtocol
import PuzzleServer

/// What a client written from `Protocol/PROTOCOL.md` alone expects (issue 19,
/// item 7): each rule over real sockets against a real server.
@Suite(.serialized) struct ServerSpecConformanceTests {
    private func expectCode(_ c: LineClient, _ line: String, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reply = try c.request(line).reply
        #expect(reply.hasPrefix("ERR \(code) "), "\(line) → \(reply)", sourceLocation: sourceLocation)
    }

    /// JOIN's room name follows the name rule, checked with the arguments:
    /// before NO_HELLO, and never looked up.
    @Test func joinChecksItsRoomNameBeforeHello() throws {
        let server = try TestServer()
        defer { server.stop() }
        let c = try LineClient(port: server.port)
        let long = String(repeating: "r", count: 25)
        for name in ["..", ".", long, "bad/name"] { try expectCode(c, "JOIN \(name)", "BAD_NAME") }
        try expectCode(c, "JOIN \(long.dropLast())", "NO_HELLO")
        _ = try c.hello("walker")
        for name in ["..", ".", long] { try expectCode(c, "JOIN \(name) secret", "BAD_NAME") }
        try expectCode(c, "JOIN \(long.dropLast())", "UNKNOWN_ROOM")
        #expect(try c.request("JOIN lobby").reply.hasPrefix("OK joined lobby "))
    }

    /// "Which error wins" for CREATE: its words are checked left to right
    /// (BAD_NAME, BAD_ARGS, BAD_SIZE, then each option: BAD_PICTURE for a
    /// picture name that breaks the name rule, BAD_NUMBER), then NO_HELLO,
    /// then the server's state: ROOM_EXISTS, TOO_MANY_ROOMS, BAD_PICTURE (no
    /// such picture), STORAGE.
    @Test func createChecksItsWordsThenHelloThenTheServersState() throws {
        let server = try TestServer()
        defer { server.stop() }
        let c = try LineClient(port: server.port)
        try expectCode(c, "CREATE den swap 1x1", "BAD_SIZE")
        try expectCode(c, "CREATE .. swap 1x1", "BAD_NAME")
        try expectCode(c, "CREATE den swap 1x1 lease=5", "BAD_SIZE")
        try expectCode(c, "CREATE den swap 3x3 lease=5", "BAD_NUMBER")
        try expectCode(c, "CREATE den swap 3x3 picture=bad/name lease=5", "BAD_PICTURE")
        try expectCode(c, "CREATE den swap 3x3 picture=nosuch", "NO_HELLO")
        try expectCode(c, "CREATE lobby swap 3x3", "NO_HELLO")
        _ = try c.hello("maker")
        try expectCode(c, "CREATE lobby swap 1x1", "BAD_SIZE")
        try expectCode(c, "CREATE lobby swap 3x3 picture=nosuch", "ROOM_EXISTS")
        try expectCode(c, "CREATE den swap 3x3 picture=nosuch", "BAD_PICTURE")
        #expect(try c.request("CREATE den swap 3x3").reply == "OK created den")
    }

    /// A move changed a piece's place: GRAB then DROP where it lay counts
    /// nowhere (WHO, STATS, the snapshot), a drop elsewhere does.
    @Test func aDropThatLeavesThePieceWhereItWasIsNoMove() throws {
        let server = try TestServer()
        defer { server.stop() }
        let c = try LineClient(port: server.port)
        let id = try c.enter(as: "still")
        #expect(try c.request("GRAB 4").reply == "OK grabbed 4")
        let dropped = try c.request("DROP").reply
        #expect(dropped.hasPrefix("OK dropped 4 table "))
        #expect(try c.request("WHO").state == ["S who \(id) still moves=0 holding=-"])
        #expect(try Self.stats(c)["moves"] == "0")
        // The same piece one unit along is a move.
        let words = dropped.split(separator: " ")
        let x = Int(words[4])!, y = Int(words[5])!
        #expect(try c.request("GRAB 4").reply == "OK grabbed 4")
        #expect(try c.request("DRAG \(x == 0 ? 1 : x - 1) \(y)").reply.hasPrefix("OK dragged 4 "))
        #expect(try c.request("DROP").reply.hasPrefix("OK dropped 4 "))
        #expect(try c.request("WHO").state == ["S who \(id) still moves=1 holding=-"])
        #expect(try Self.stats(c)["moves"] == "1")
    }

    static func stats(_ c: LineClient) throws -> [String: String] {
        let reply = try c.request("STATS").reply
        return Dictionary(reply.split(separator: " ").dropFirst(2).compactMap { word -> (String, String)? in
            guard let eq = word.firstIndex(of: "=") else { return nil }
            return (String(word[..<eq]), String(word[word.index(after: eq)...]))
        }, uniquingKeysWith: { a, _ in a })
    }

    /// The line itself is checked first, in this order: its length (a long
    /// line is never read), then NUL bytes anywhere, then UTF-8.
    @Test func lineErrorsComeInTheDocumentedOrder() throws {
        let server = try TestServer { $0.maxLineLength = 64 }
        defer { server.stop() }
        let c = try LineClient(port: server.port)
        try c.sendRaw(Array("SAY ".utf8) + [0xFF, 0] + [UInt8](repeating: 0x78, count: 80) + [0x0A])
        #expect(try c.awaitReply().reply.hasPrefix("ERR LINE_TOO_LONG "))
        // Invalid UTF-8 before the NUL: still NUL_BYTE.
        try c.sendRaw(Array("SAY ".utf8) + [0xFF, 0xFE, 0x20, 0] + Array(" x\n".utf8))
        #expect(try c.awaitReply().reply.hasPrefix("ERR NUL_BYTE "))
        // Both line errors before the verb.
        try c.sendRaw(Array("FROB ".utf8) + [0xFF, 0x0A])
        #expect(try c.awaitReply().reply.hasPrefix("ERR BAD_UTF8 "))
        #expect(try c.request("PING alive").reply == "PONG alive")
    }

    /// ROOMS' `players=` counts the players present, a version 2 player away
    /// after a dropped link among them; players who left are not counted.
    @Test func roomsCountsAwayPlayersAndNotThoseWhoLeft() throws {
        let log = LogLines()
        let server = try TestServer(log: log) { c in
            c.leaseMillis = 120_000
            c.logLevel = .info
        }
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        _ = try HoldAcrossReconnectTests.enter2(alice, "alice")
        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")
        let carol = try LineClient(port: server.port, name: "carol")
        try carol.enter(as: "carol")
        #expect(try carol.request("LEAVE").reply == "OK left lobby")
        alice.connection.close()
        #expect(log.waitFor { $0.contains("dropped holding [4] in lobby") } != nil)
        let rooms = try bob.request("ROOMS").state
        #expect(rooms.count == 1 && rooms[0].contains(" players=2 "), "\(rooms)")
    }

    /// Ids are never reused, also across a restart: a version 1 player who
    /// never joined a room is remembered by no room and has no token, yet its
    /// id is not handed out again, even after kill -9.
    @Test func idsAreNeverReusedAcrossARestart() throws {
        let data = TestServer.temporaryDirectory()
        var server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        var seen: Set<Int> = []
        for name in ["ann", "ben"] {
            let c = try LineClient(port: server.port, name: name)
            seen.insert(try c.hello(name))
        }
        try server.kill()
        server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        let later = try LineClient(port: server.port, name: "cat")
        let id = try later.hello("cat")
        #expect(id > seen.max()!, "id \(id) after the restart; before it: \(seen.sorted())")
        // And after a second restart.
        try server.kill()
        server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        let again = try LineClient(port: server.port, name: "dan")
        #expect(try again.hello("dan") > id)
        try server.kill()
    }
}
