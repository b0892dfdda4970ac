import PuzzleLink
import Foundation
import Testing
import PuzzleCore
import PuzzleClient
import PuzzleProtocol
import PuzzleTestSupport
import PuzzleServer

/// Runs the real `puzzle play` on a pseudo-terminal (util-linux `script`
/// provides it), so the full-screen mode is what starts: it must draw the room,
/// take keys, and leave the terminal as it found it on `quit`.
@Suite(.serialized) struct InteractiveTerminalTests {
    /// util-linux `script` gives the client a terminal; without it the test says so.
    private func hasScript() -> Bool {
        guard PtyPlayer.available else {
            Issue.record("util-linux script is needed to give the client a terminal")
            return false
        }
        return true
    }

    /// A real server with a second player in its room, to see what the client does.
    private func serverWithWatcher() throws -> (TestServer, LineClient) {
        let server = try TestServer()
        let watcher = try LineClient(port: server.port, name: "watcher")
        try watcher.enter(as: "watcher")
        return (server, watcher)
    }

    @Test func fullScreenModeDrawsTheRoomTakesKeysAndRestoresTheTerminalOnQuit() throws {
        guard hasScript() else { return }
        let (server, watcher) = try serverWithWatcher()
        let player = try PtyPlayer(port: server.port, name: "tty")
        let (p, out) = (player.process, player)
        defer { if p.isRunning { p.terminate() } }
        // Full screen: alternate screen, then the status line of the room.
        #expect(out.wait(for: "\u{1B}[?1049h"), "no alternate screen: \(out.text.suffix(300))")
        #expect(out.wait(for: "lobby"), "no status line: \(out.text.suffix(300))")
        // Tab grabs a free piece; the other player sees the grab.
        player.write(Data("\t".utf8))
        let grab = try watcher.waitForEvent { $0.contains(" grabbed ") }
        #expect(grab.hasPrefix("EV "))
        // Plain text is chat, seen by the other player.
        player.write(Data("hi from a tty\r".utf8))
        let say = try watcher.waitForEvent { $0.contains(" say ") }
        #expect(say.hasSuffix(" hi from a tty"))
        player.write(Data("/quit\r".utf8))
        #expect(player.waitForExit(), "the client did not exit on quit")
        #expect(p.terminationStatus == 0)
        // The terminal was handed back: main screen restored, cursor shown.
        #expect(out.wait(for: "\u{1B}[?1049l") && out.wait(for: "\u{1B}[?25h"), "terminal not handed back: \(out.text.suffix(200))")
        // Leaving released the piece it held.
        try watcher.waitForEvent { $0.contains(" left ") }
    }

    /// Mouse play on a real terminal: a press on a piece grabs it, motion with the
    /// button held drags it (keeping the grab offset), release drops it; another
    /// player sees each step. Mouse reporting is switched off again on quit.
    @Test func mousePressDragsAndReleaseDrops() throws {
        guard hasScript() else { return }
        let (server, watcher) = try serverWithWatcher()
        let player = try PtyPlayer(port: server.port, name: "mouse")
        let (p, out) = (player.process, player)
        defer { if p.isRunning { p.terminate() } }
        #expect(out.wait(for: "\u{1B}[?1006h"), "mouse reporting not turned on: \(out.text.suffix(300))")
        // Joined once its chat reaches the room (typed too early, it is refused: type it again).
        var joined = false
        for _ in 0..<40 where !joined {
            player.write(Data("ready\r".utf8))
            joined = (try? watcher.waitForEvent(timeout: 0.5) { $0.contains(" say ") && $0.hasSuffix(" ready") }) != nil
        }
        #expect(joined, "the client never joined: \(out.text.suffix(300))")
        // Where the pieces lie, from the server; the client (24x80 when the pty
        // reports no size) shows the whole table fitted to its view, so screen
        // cells map to table points as `SceneLayout` maps them at the fitted zoom.
        let snapshot = try SnapshotCodec.decode(try watcher.request("SYNC").state.map { Substring($0) }, now: 0)
        let st = snapshot.state
        let fitted = SceneLayout(width: 80, height: 24).fit(table: st.geometry)
        let layout = SceneLayout(width: 80, height: 24, zoom: fitted.zoom)
        // The screen cell over the middle of a piece, and the table point the client reads there.
        var touches: [(row: Int, column: Int, point: Point, piece: Int)] = []
        for p in 0..<st.pieceCount {
            let corner = st.position(of: p)
            let column = fitted.zoom.pixel(corner.x + 2 - fitted.view.x), row = 1 + fitted.zoom.pixel(corner.y + 2 - fitted.view.y) / 2
            if let point = layout.tablePoint(row: row, column: column, view: fitted.view), st.topPiece(at: point) == p {
                touches.append((row, column, point, p))
            }
        }
        #expect(touches.count == st.pieceCount, "every piece can be touched in the fitted view")
        let touch = try #require(touches.first)
        let piece = touch.piece
        func sgr(_ code: Int, _ row: Int, _ column: Int, _ final: String) -> Data {
            Data("\u{1B}[<\(code);\(column + 1);\(row + 1)\(final)".utf8)
        }
        player.write(sgr(0, touch.row, touch.column, "M"))
        let grab = try watcher.waitForEvent { $0.contains(" grabbed \(piece) ") }
        #expect(grab.hasPrefix("EV "))
        // Three columns right and two rows down, the button held: the piece follows, offset kept.
        let to = (row: touch.row + 2, column: touch.column + 3)
        let toPoint = try #require(layout.tablePoint(row: to.row, column: to.column, view: fitted.view))
        player.write(sgr(32, to.row, to.column, "M"))
        let corner = st.position(of: piece)
        let expected = Point(x: corner.x + toPoint.x - touch.point.x, y: corner.y + toPoint.y - touch.point.y)
        try watcher.waitForEvent { $0.contains(" dragged \(piece) ") && $0.contains(" \(expected.x) \(expected.y) ") }
        // The fitted view was drawn in half-blocks, each frame a synchronized update.
        // (Waited for: the frame may still be on its way through the pty.)
        #expect(out.wait(for: "▀") && out.wait(for: "\u{1B}[?2026h"), "no half-blocks or synchronized output: \(out.text.suffix(300))")
        player.write(sgr(0, to.row, to.column, "m"))
        try watcher.waitForEvent { $0.contains(" placed \(piece) ") }
        player.write(Data("/quit\r".utf8))
        #expect(player.waitForExit(), "the client did not exit on quit")
        #expect(out.wait(for: "\u{1B}[?1002l") && out.wait(for: "\u{1B}[?1006l"), "mouse reporting left on")
    }

    /// A server that goes away shows at once as "reconnecting, attempt N"; when
    /// it is back the client rejoins by itself and plays on.
    @Test func aLostServerShowsReconnectingAndTheClientComesBack() throws {
        guard hasScript() else { return }
        let data = TestServer.temporaryDirectory()
        var server: TestServer? = try TestServer(dataDirectory: data)
        let port = server!.port
        let player = try PtyPlayer(port: port, name: "phoenix")
        let (p, out) = (player.process, player)
        defer { if p.isRunning { p.terminate() } }
        do {
            let watcher = try LineClient(port: port, name: "watcher")
            try watcher.enter(as: "watcher")
            _ = try Self.idInRoom("phoenix", seenBy: watcher)
        }
        server?.stop()
        server = nil
        #expect(out.wait(for: "reconnecting, attempt"), "no reconnecting notice: \(out.text.suffix(400))")
        #expect(out.wait(for: "rtt -"), "the rtt still shows a figure")
        server = try TestServer(dataDirectory: data) { $0.port = port }
        let watcher = try LineClient(port: port, name: "watcher2")
        try watcher.enter(as: "watcher2")
        _ = try Self.idInRoom("phoenix", seenBy: watcher)
        player.write(Data("back again\r".utf8))
        try watcher.waitForEvent { $0.contains(" say ") && $0.hasSuffix(" back again") }
        player.write(Data("/quit\r".utf8))
        #expect(player.waitForExit(), "the client did not exit on quit")
    }

    /// The status line shows the room's play time, kept by the server (not
    /// counted from this client's arrival), and the player stays itself across
    /// a server restart: the client comes back under the same id.
    @Test func statusLineShowsTheKeptClockAndTheSameIDAfterARestart() throws {
        guard hasScript() else { return }
        let data = TestServer.temporaryDirectory()
        // A room that was played for 65 s before, its clock paused while empty.
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3)
        var lines: [UInt8] = []
        SnapshotCodec.encode(RoomSnapshot(name: "lobby", state: RoomState(settings: RoomSettings(first: spec, seed: 7)), picture: nil),
                             now: 0, extended: true, into: &lines)
        let text = String(decoding: lines, as: UTF8.self)
        #expect(text.contains(" elapsed=0 ") && text.contains("clock=paused"))
        let played = try SnapshotCodec.decode(text.replacingOccurrences(of: " elapsed=0 ", with: " elapsed=65000 ")
            .split(separator: "\n"), now: 0)
        do {
            let store = try RoomStore(directory: data, fsync: .batch, snapshotEvery: 0)
            try store.create(StoredRoom(snapshot: played, password: nil), now: 0)
            store.close()
        }

        var server: TestServer? = try TestServer(dataDirectory: data)
        let port = server!.port
        let player = try PtyPlayer(port: port, name: "phoenix")
        let (p, out) = (player.process, player)
        defer { if p.isRunning { p.terminate() } }
        let id: String
        do {
            let watcher = try LineClient(port: port, name: "watcher")
            try watcher.enter(as: "watcher")
            id = try Self.idInRoom("phoenix", seenBy: watcher)
        }
        // 65 s and counting: 1:05 at the least, and not a clock started at 0 by this client.
        #expect(out.wait(for: "1:0"), "the status line does not show the room's play time: \(out.text.suffix(400))")
        // (Frames skip unchanged cells, spaces included: the clock is written
        // after a cursor move of its own.)
        #expect(!out.text.contains("H0:0"), "the status line showed a clock from zero")

        server?.stop()
        server = nil
        #expect(out.wait(for: "reconnecting, attempt"), "no reconnecting notice: \(out.text.suffix(400))")
        server = try TestServer(dataDirectory: data) { $0.port = port }
        let watcher = try LineClient(port: port, name: "watcher2")
        try watcher.enter(as: "watcher2")
        // Back as the same player (its resume token), not a new one.
        #expect(try Self.idInRoom("phoenix", seenBy: watcher) == id)
        player.write(Data("/quit\r".utf8))
        #expect(player.waitForExit(), "the client did not exit on quit")
        _ = server
    }

    /// The id of player `name` once it is in the watcher's room: the player
    /// may have joined before the watcher (in its snapshot, no event) or after
    /// (a `joined` event); WHO says either way.
    static func idInRoom(_ name: String, seenBy watcher: LineClient, timeout: Double = 20) throws -> String {
        let end = Date().addingTimeInterval(timeout)
        while true {
            for line in try watcher.request("WHO").state {
                let words = line.split(separator: " ")
                if words.count > 3, words[3] == name { return String(words[2]) }
            }
            guard Date() < end else { throw LineClient.Timeout(description: "\(name) not in the room within \(timeout) s") }
            _ = try? watcher.waitForEvent(timeout: 0.5) { $0.contains(" joined ") && $0.hasSuffix(" \(name)") }
        }
    }
}
