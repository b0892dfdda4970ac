import Foundation
import Testing
import PuzzleClient
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
        #expect(kept.count == 33 && !kept.hasPrefix(Self.token), "kept: \(kept)")
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
