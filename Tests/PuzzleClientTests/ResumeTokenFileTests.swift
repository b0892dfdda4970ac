import Foundation
import Testing
import PuzzleClient
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleSystem
import PuzzleTestSupport

/// The resume token kept on disk: a restarted client is the same player.
@Suite(.serialized) struct ResumeTokenFileTests {
    static let token = "0123456789abcdef0123456789abcdef"

    @Test func aKeptTokenIsReadBackByTheNextRunAndTheFileIsPrivate() throws {
        let dir = TestServer.temporaryDirectory()
        do {
            let file = try #require(try ResumeTokenFile(directory: dir, host: "127.0.0.1", port: 7171, name: "bob"))
            #expect(file.token == nil)
            try file.keep(Self.token)
        }
        let again = try #require(try ResumeTokenFile(directory: dir, host: "127.0.0.1", port: 7171, name: "bob"))
        #expect(again.token == Self.token)
        let attributes = try FileManager.default.attributesOfItem(atPath: again.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: dir + "/tokens")
        #expect((dirAttributes[.posixPermissions] as? Int) == 0o700)
        // Another name or server has its own file.
        #expect(try ResumeTokenFile(directory: dir, host: "127.0.0.1", port: 7172, name: "bob")?.token == nil)
        #expect(try ResumeTokenFile(directory: dir, host: "127.0.0.1", port: 7171, name: "carol")?.token == nil)
        // Forgetting empties it; a shorter token leaves no tail of the longer one.
        try again.keep(nil)
        #expect(try FileSystem.readFile(again.path).isEmpty)
    }

    /// Issue 29: the file keeps the room the player is in beside the token;
    /// no token, no room; a damaged room name is none.
    @Test func theRoomIsKeptWithTheToken() throws {
        let dir = TestServer.temporaryDirectory()
        do {
            let file = try #require(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "bob"))
            try file.keep(Self.token, room: "den")
            try file.keep(Self.token, room: nil)
            #expect(file.room == "den", "nil keeps the room kept")
        }
        let again = try #require(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "bob"))
        #expect(again.token == Self.token && again.room == "den")
        try again.keep(nil, room: "den")
        #expect(again.room == nil)
        #expect(try FileSystem.readFile(again.path).isEmpty)
        try FileSystem.writeFile(again.path, Array("\(Self.token)\n../x\n".utf8), sync: false, permissions: 0o600)
        let damaged = try #require(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "carol"))
        _ = damaged
        #expect(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "bob")?.room == nil)
    }

    /// Issue 29: the same command started again goes back to the room it
    /// was in (not the list, though the server has two rooms), as the same
    /// player; `--room` still chooses another; a room gone since is said,
    /// and the rooms are listed to pick from.
    @Test func aRestartedClientGoesBackToItsRoom() throws {
        let rooms = ["lobby", "den"].map { RoomSpec(name: $0, kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil) }
        let data = TestServer.temporaryDirectory()
        var server = try TestServer(rooms: rooms, dataDirectory: data)
        let dir = TestServer.temporaryDirectory()
        var carol = try PlainSession(port: server.port, name: "carol", room: nil, stateDirectory: dir)
        try carol.waitFor("the room list") { $0.hasPrefix("pick a room") }
        try carol.send("/join den")
        let first = try carol.waitFor("the join") { $0.hasPrefix("joined den as carol") }.line
        carol.closeInput()
        _ = try carol.waitForExit()

        carol = try PlainSession(port: server.port, name: "carol", room: nil, stateDirectory: dir)
        try carol.waitFor("going back") { $0 == "back to den, the room you were in" }
        let again = try carol.waitFor("the join") { $0.hasPrefix("joined den as carol") }.line
        #expect(again.split(separator: " ")[4] == first.split(separator: " ")[4], "the same player: \(first) / \(again)")
        #expect(!carol.output.contains { $0.hasPrefix("pick a room") }, "\(carol.output)")
        carol.closeInput()
        _ = try carol.waitForExit()

        // --room chooses another, which is then the one to go back to.
        carol = try PlainSession(port: server.port, name: "carol", room: "lobby", stateDirectory: dir)
        try carol.waitFor("the join") { $0.hasPrefix("joined lobby as carol") }
        carol.closeInput()
        _ = try carol.waitForExit()

        // A server without the lobby (same data, only den configured, the lobby's files gone).
        // On the same port: the token file is kept per server address.
        let port = server.port
        server.stop()
        try FileManager.default.removeItem(atPath: data + "/rooms/lobby")
        server = try TestServer(rooms: [rooms[1]], dataDirectory: data) { $0.port = port }
        defer { server.stop() }
        carol = try PlainSession(port: server.port, name: "carol", room: nil, stateDirectory: dir)
        try carol.waitFor("why not back") { $0 == "room lobby, where you were, is gone" }
        // The only room left is joined as before.
        try carol.waitFor("the join") { $0.hasPrefix("joined den as carol") }
        carol.closeInput()
        _ = try carol.waitForExit()
    }

    @Test func aSecondClientWithTheSameNameAndServerDoesNotTakeTheToken() throws {
        let dir = TestServer.temporaryDirectory()
        let first = try #require(try ResumeTokenFile(directory: dir, host: "::1", port: 7171, name: "bob"))
        try first.keep(Self.token)
        #expect(try ResumeTokenFile(directory: dir, host: "::1", port: 7171, name: "bob") == nil)
        _ = first
    }

    @Test func aDamagedFileIsNoToken() throws {
        let dir = TestServer.temporaryDirectory()
        let path = try #require(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "bob")).path
        for junk in ["xyz\n", "0123456789ABCDEF0123456789ABCDEF\n", String(repeating: "a", count: 33), "\u{0}\u{1}"] {
            try FileSystem.writeFile(path, Array(junk.utf8), sync: false, permissions: 0o600)
            #expect(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "bob")?.token == nil, "\(junk)")
        }
    }

    @Test func newPlayerForgetsTheKeptToken() throws {
        let dir = TestServer.temporaryDirectory()
        try #require(try ResumeTokenFile(directory: dir, host: "h", port: 1, name: "bob")).keep(Self.token)
        var o = PlayOptions()
        o.host = "h"; o.port = 1; o.name = "bob"; o.stateDirectory = dir; o.newPlayer = true
        let file = try #require(ResumeTokenFile.open(for: o) { Issue.record("unexpected: \($0)") })
        #expect(file.token == nil)
    }

    /// A token the server does not know (its data was wiped) is dropped: the
    /// client joins as a new player and keeps the new token.
    @Test func anUnknownKeptTokenJoinsAsANewPlayerAndKeepsTheNewToken() throws {
        let server = try TestServer()
        let dir = TestServer.temporaryDirectory()
        let path: String
        do {
            let file = try #require(try ResumeTokenFile(directory: dir, host: "127.0.0.1", port: UInt16(server.port), name: "carol"))
            try file.keep(Self.token)
            path = file.path
        }
        let carol = try PlainSession(port: server.port, name: "carol", room: "lobby", stateDirectory: dir)
        try carol.waitFor("the join") { $0.hasPrefix("joined lobby as carol") }
        try carol.send("say hi")
        try carol.waitFor("said") { $0.hasPrefix("ok: said") }
        carol.closeInput()
        _ = try carol.waitForExit(timeout: 10)
        let kept = String(decoding: try FileSystem.readFile(path), as: UTF8.self)
        // The new token, then the room it played in (issue 29).
        #expect(kept.count == 33 + 6 && !kept.hasPrefix(Self.token) && kept.hasSuffix("\nlobby\n"), "kept: \(kept)")
        #expect(!carol.output.contains { $0.hasPrefix("error") }, "\(carol.output)")
    }

    /// Kill -9 the terminal client holding a piece and start it again with the
    /// same name: the same player (id), its piece still held, and the others
    /// saw no leave and no join.
    @Test func aKilledAndRestartedClientIsTheSamePlayerAndKeepsItsHold() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed"); return }
        let server = try TestServer()
        let watcher = try LineClient(port: server.port, name: "watcher")
        try watcher.enter(as: "watcher")
        let home = TestServer.temporaryDirectory()
        var bob = try PtyPlayer(port: server.port, name: "bob", stateHome: home)
        let joined = try watcher.waitForEvent(timeout: 20) { $0.contains(" joined ") && $0.hasSuffix(" bob") }
        let id = String(joined.split(separator: " ")[3])
        var grab: String?
        for _ in 0..<40 where grab == nil {
            bob.type("\t")
            grab = try? watcher.waitForEvent(timeout: 0.5) { $0.contains(" grabbed ") }
        }
        let piece = try #require(grab, "bob never grabbed").split(separator: " ")[3]
        let tokenPath = home + "/puzzle-room/tokens/127.0.0.1-\(server.port)-bob"
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        bob.kill()
        bob = try PtyPlayer(port: server.port, name: "bob", stateHome: home)
        var said: String?
        for _ in 0..<40 where said == nil {
            bob.type("back\r")
            said = try? watcher.waitForEvent(timeout: 0.5) { $0.contains(" say ") && $0.hasSuffix(" back") }
        }
        #expect(said?.contains(" say \(id) back") == true, "chat after the restart: \(said ?? "none")")
        #expect(!watcher.events.contains { $0.contains(" left \(id)") || $0.contains(" joined ") || $0.contains(" returned \(piece) ") },
                "the others saw: \(watcher.events)")
        let who = try watcher.request("WHO").state
        #expect(who.contains { $0.contains(" \(id) bob ") && $0.hasSuffix("holding=\(piece)") }, "\(who)")
        // The restarted client knows it holds the piece: Enter on an empty prompt drops it.
        bob.type("\r")
        try watcher.waitForEvent { $0.contains(" placed \(piece) \(id) ") }
        bob.type("/quit\r")
        #expect(bob.waitForExit())
    }
}
