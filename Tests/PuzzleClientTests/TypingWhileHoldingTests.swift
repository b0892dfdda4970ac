import Foundation
import Testing
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport

/// Chat typed while holding a piece arrives whole: no key that types a
/// character plays the piece (it once ate the first letter: "rotate it? yes"
/// arrived as "otate it? yes", and "right" as "ight" after ROTATION_OFF).
@Suite(.serialized) struct TypingWhileHoldingTests {
    /// A real client on a terminal in `rooms`' lobby, holding a piece, and a
    /// second player watching.
    private func holdingPlayer(rotation: Bool, leaseMillis: Int? = nil) throws -> (TestServer, LineClient, PtyPlayer, piece: Int) {
        let server = try TestServer(rooms: [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset",
                                                    rotation: rotation, password: nil, leaseMillis: leaseMillis)])
        let watcher = try LineClient(port: server.port, name: "watcher")
        try watcher.enter(as: "watcher")
        let player = try PtyPlayer(port: server.port, name: "typist")
        try watcher.waitForEvent(timeout: 20) { $0.contains(" joined ") && $0.hasSuffix(" typist") }
        // Tab takes a free piece once the client has its room (a Tab before that does nothing).
        var grab: String?
        for _ in 0..<40 where grab == nil {
            player.type("\t")
            grab = try? watcher.waitForEvent(timeout: 0.5) { $0.contains(" grabbed ") }
        }
        let grabbed = try #require(grab, "the client never grabbed: \(player.text.suffix(300))")
        return (server, watcher, player, Int(grabbed.split(separator: " ")[3])!)
    }

    private func chat(_ watcher: LineClient) throws -> String {
        let line = try watcher.waitForEvent { $0.contains(" say ") }
        // EV <seq> say <id> <text...>
        return line.split(separator: " ", maxSplits: 4).dropFirst(4).first.map(String.init) ?? ""
    }

    @Test func chatStartingWithPieceOrZoomKeysArrivesWholeWhileHolding() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed"); return }
        let (server, watcher, player, piece) = try holdingPlayer(rotation: false)
        player.type("rotate it? yes\r")
        #expect(try chat(watcher) == "rotate it? yes")
        player.type("right\r")
        #expect(try chat(watcher) == "right")
        player.type("+1 from me\r")
        #expect(try chat(watcher) == "+1 from me")
        player.type("=) -ok\r")
        #expect(try chat(watcher) == "=) -ok")
        // The piece is still held, unturned, and nothing else happened to it.
        let who = try watcher.request("WHO").state
        #expect(who.contains { $0.contains(" typist ") && $0.hasSuffix("holding=\(piece)") }, "\(who)")
        #expect(!watcher.events.contains { $0.contains(" rotated ") || $0.contains(" released ") || $0.contains(" placed ") },
                "\(watcher.events)")
        #expect(!player.text.contains("ROTATION_OFF"))
        player.type("/quit\r")
        #expect(player.waitForExit())
        _ = server
    }

    @Test func ctrlRRotatesTheHeldPieceInARoomWithRotation() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed"); return }
        let (server, watcher, player, piece) = try holdingPlayer(rotation: true)
        player.type("\u{12}")
        try watcher.waitForEvent { $0.contains(" rotated \(piece) ") }
        // Even with a half-typed line, which stays as it was.
        player.type("hel\u{12}lo\r")
        try watcher.waitForEvent { $0.contains(" rotated \(piece) ") }
        #expect(try chat(watcher) == "hello")
        player.type("/quit\r")
        #expect(player.waitForExit())
        _ = server
    }

    /// Typing a line with a piece in hand is being there: the hold does not
    /// lapse however long the line takes while keys keep coming; once the
    /// player stops typing (the line left half typed) it lapses as any
    /// abandoned hold (a half-typed line once kept it for ever). The lease is
    /// 3 s: a player counts as there for 1 s after a key.
    @Test func aHoldIsKeptWhileThePlayerTypesAndLapsesWhenTheTypingStops() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed"); return }
        let (server, watcher, player, piece) = try holdingPlayer(rotation: false, leaseMillis: 3_000)
        // A slow typist: a key every quarter second for more than two leases.
        let start = Date()
        for c in "still looking for its place" where Date().timeIntervalSince(start) < 7 {
            player.type(String(c))
            let lapsed = try? watcher.waitForEvent(timeout: 0.25) { $0.contains(" expired ") }
            #expect(lapsed == nil, "the hold lapsed while the player typed")
            if lapsed != nil { break }
        }
        let who = try watcher.request("WHO").state
        #expect(who.contains { $0.contains(" typist ") && $0.hasSuffix("holding=\(piece)") }, "\(who)")
        // The line stays half typed, no more keys: the player is not there and the hold lapses.
        try watcher.waitForEvent(timeout: 20) { $0.contains(" expired \(piece) ") }
        player.type("\u{1B}/quit\r")
        #expect(player.waitForExit())
        _ = server
    }
}
