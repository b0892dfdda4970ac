import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The full-screen game without a terminal: keys, mouse events and server lines go into a
/// `PlayApp`, and the requests it gives out and the scene it shows are checked.
@Suite struct PlayAppTests {
    /// Alice (1) joined to room `duo` (a jigsaw of `rows` x `cols`) with bob (2), on a screen of `width` x `height`.
    static func joined(rows: Int = 2, cols: Int = 2, width: Int = 80, height: Int = 24, leaseMillis: Int64 = 30_000,
                       kind: PuzzleKind = .jigsaw) throws -> (PlayApp, RoomState) {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: kind, rows: rows, cols: cols), leaseMillis: leaseMillis, seed: 5))
        var ev: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0, into: &ev)
        try st.perform(.join(name: "bob"), by: PlayerID(2), at: 0, into: &ev)
        var app = PlayApp(session: ClientSession(name: "alice", room: "duo"), colorMode: .plain)
        app.handle(.resize(rows: height, columns: width), now: 0)
        #expect(app.takeRequests().isEmpty, "nothing goes out before the link is up")
        app.handle(.connected, now: 0)
        #expect(app.takeRequests().map(\.line) == ["HELLO 2 alice", "JOIN duo"])
        var lines = ["OK hello version=2 id=1 name=alice server=puzzle-room"]
        lines += SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0)
        lines.append("OK joined duo id=1 seq=\(st.seq)")
        for line in lines { app.handle(.serverLine(Substring(line)), now: 0) }
        #expect(app.session.phase == .joined)
        _ = app.scene(now: 0)
        return (app, st)
    }

    /// Takes `piece` as the server would tell it: the reply and the event.
    static func grant(_ piece: Int, to app: inout PlayApp, seq: UInt64, now: Int64) {
        app.handle(.serverLine("OK grabbed \(piece)"), now: now)
        app.handle(.serverLine(Substring("EV \(seq) grabbed \(piece) 1")), now: now)
    }

    static func type(_ text: String, into app: inout PlayApp, now: Int64) {
        for c in text { app.handle(.key(.character(c)), now: now) }
        app.handle(.key(.enter), now: now)
    }

    /// Where table point `p` is on the screen.
    static func screenCell(of p: Point, in app: PlayApp) throws -> (row: Int, column: Int) {
        try #require(app.viewport.layout.screenCell(of: p, view: app.viewport.origin))
    }

    /// The middle of `piece` as it lies.
    static func middle(of piece: Int, _ st: RoomState) -> Point {
        let corner = st.position(of: piece)
        return Point(x: corner.x + st.geometry.unit / 2, y: corner.y + st.geometry.unit / 2)
    }

    @Test func tabGrabsAFreePieceAndTheSceneShowsItHeld() throws {
        var (app, st) = try Self.joined()
        app.handle(.key(.tab), now: 1)
        let requests = app.takeRequests()
        guard case .grab(let piece)? = requests.first, requests.count == 1 else {
            Issue.record("Tab sent \(requests)")
            return
        }
        Self.grant(piece, to: &app, seq: st.seq + 1, now: 2)
        let scene = app.scene(now: 2)
        #expect(scene.state?.players[PlayerID(1)]?.holding == [piece])
        #expect(scene.myID == PlayerID(1))
    }

    /// Letters that would play the piece with an empty prompt are text once typing started:
    /// the whole line goes out as chat, and the piece is not touched.
    @Test func typingWhileHoldingSendsTheWholeLineAsChat() throws {
        var (app, st) = try Self.joined()
        app.handle(.key(.tab), now: 1)
        guard case .grab(let piece)? = app.takeRequests().first else { Issue.record("no grab"); return }
        Self.grant(piece, to: &app, seq: st.seq + 1, now: 2)
        Self.type("rotate it", into: &app, now: 3)
        #expect(app.takeRequests() == [.say("rotate it")])
        #expect(app.editor.text.isEmpty)
    }

    @Test func aWheelStepOverTheTableZoomsAboutThePointer() throws {
        var (app, _) = try Self.joined(rows: 4, cols: 4, width: 120, height: 40)
        let layout = app.viewport.layout
        // A cell well inside the table view, off its middle.
        let (row, column) = (layout.viewTop + 4, 10)
        let before = try #require(layout.tablePoint(row: row, column: column, view: app.viewport.origin))
        let zoom = app.viewport.zoom
        app.handle(.key(.mouse(MouseEvent(button: .wheelUp, action: .press, row: row, column: column))), now: 1)
        #expect(app.viewport.zoom != zoom)
        #expect(!app.viewport.autoFit, "the player zoomed: the view is not fitted again")
        let after = try #require(app.viewport.layout.tablePoint(row: row, column: column, view: app.viewport.origin, shift: app.viewport.shift))
        // The point under the pointer stays there (to a pixel of the new zoom).
        let pixel = max(1, app.viewport.zoom.units(inPixels: 2))
        #expect(abs(after.x - before.x) <= pixel && abs(after.y - before.y) <= pixel, "\(before) → \(after)")
        #expect(app.takeRequests().isEmpty)
        // Four more steps in and four out: each keeps the middle of the pointer's pixel under it, to the pixel.
        for button in [MouseEvent.Button.wheelUp, .wheelUp, .wheelUp, .wheelUp, .wheelDown, .wheelDown, .wheelDown, .wheelDown] {
            let was = app.viewport.layout.fineSpan(row: row, column: column, view: app.viewport.origin, shift: app.viewport.shift)
            app.handle(.key(.mouse(MouseEvent(button: button, action: .press, row: row, column: column))), now: 2)
            _ = app.scene(now: 2)  // the frame's own fitting and clamping
            let now = app.viewport.layout.fineSpan(row: row, column: column, view: app.viewport.origin, shift: app.viewport.shift)
            let middle = (x: (was.x.lowerBound + was.x.upperBound) / 2, y: (was.y.lowerBound + was.y.upperBound) / 2)
            #expect(now.x.contains(middle.x) && now.y.contains(middle.y), "\(button) at \(app.viewport.zoom): \(was) → \(now)")
        }
    }

    /// Ctrl-P is a plain toggle of the box lid: open (small), closed, open
    /// again; a lid made larger with /lid closes at one press, not after a
    /// round of sizes.
    @Test func ctrlPOpensAndClosesTheLid() throws {
        var (app, _) = try Self.joined(rows: 4, cols: 4, width: 120, height: 40)
        var seen: [Int] = []
        for _ in 0..<3 {
            app.handle(.key(KeyMap.lidKey), now: 1)
            seen.append(app.lens.lid)
        }
        #expect(seen == [1, 0, 1])
        Self.type("/lid bigger", into: &app, now: 2)
        #expect(app.lens.lid == 2)
        app.handle(.key(KeyMap.lidKey), now: 3)
        #expect(app.lens.lid == 0)
    }

    /// The help offers Ctrl-P and /lid where the room has the lid (a jigsaw
    /// by default), not in a swap room, where they would only say no.
    @Test func theHelpShowsTheLidKeyOnlyWhereTheRoomOffersIt() throws {
        for (kind, offered) in [(PuzzleKind.jigsaw, true), (.swap, false)] {
            let joined = try Self.joined(kind: kind)
            var app = joined.0
            #expect(joined.1.settings.lid == offered)
            Self.type("/help", into: &app, now: 1)
            let lines = try #require(app.overlay?.lines)
            #expect(lines.contains { $0.contains("Ctrl-P") } == offered, "\(kind)")
            #expect(lines.contains { $0.hasPrefix("/lid") } == offered, "\(kind)")
        }
    }

    @Test func theStartUpRoomPickerOpensAWindowAndClosesOnJoin() throws {
        var app = PlayApp(session: ClientSession(name: "dave", room: nil), colorMode: .plain)
        app.handle(.connected, now: 0)
        #expect(app.takeRequests().map(\.line) == ["HELLO 2 dave", "ROOMS"])
        for line in ["OK hello version=2 id=4 name=dave server=puzzle-room",
                     "S room duo kind=jigsaw size=2x2 rotation=off players=1 password=no puzzle=0 progress=0/4",
                     "S room lobby kind=jigsaw size=3x3 rotation=off players=0 password=no puzzle=0 progress=2/9",
                     "OK rooms 2"] {
            app.handle(.serverLine(Substring(line)), now: 0)
        }
        #expect(app.overlay?.title == "pick a room: /join NAME [PASSWORD]")
        #expect(app.overlay?.lines == ["duo  jigsaw 2x2  1 player  0/4 placed", "lobby  jigsaw 3x3  0 players  2/9 placed"])
        #expect(app.scene(now: 0).choosingRoom)
        Self.type("/join duo", into: &app, now: 1)
        #expect(app.takeRequests() == [.join(room: "duo", password: nil)])
        #expect(app.overlay != nil, "open until the join is done")
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 5))
        try st.perform(.join(name: "dave"), by: PlayerID(4), at: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 1) { app.handle(.serverLine(Substring(line)), now: 1) }
        app.handle(.serverLine(Substring("OK joined duo id=4 seq=\(st.seq)")), now: 1)
        #expect(app.overlay == nil)
        #expect(app.scene(now: 1).room == "duo")
    }

    /// Issue 29: the start-up hint fits the table view at 80 columns (the
    /// panel took its end: "... (/rooms lists them" was cut).
    @Test func theNoRoomHintFitsAt80Columns() throws {
        var app = PlayApp(session: ClientSession(name: "dave", room: nil), colorMode: .plain)
        app.handle(.resize(rows: 24, columns: 80), now: 0)
        app.handle(.connected, now: 0)
        for line in ["OK hello version=2 id=4 name=dave server=puzzle-room",
                     "S room duo kind=jigsaw size=2x2 rotation=off players=1 password=no puzzle=0 progress=0/4",
                     "S room lobby kind=jigsaw size=3x3 rotation=off players=0 password=no puzzle=0 progress=2/9",
                     "OK rooms 2"] {
            app.handle(.serverLine(Substring(line)), now: 0)
        }
        let rows = SceneFixtures.rows(SceneRenderer.render(app.scene(now: 0)))
        // The table view is 55 columns (the panel starts at 55): the hint wraps inside it.
        #expect(rows[2].prefix(55) == "  in no room yet: /join NAME to play (/rooms lists     ")
        #expect(rows[3].prefix(55) == "  them)                                                ")
    }

    /// Issue 31: a server just restarted answers ROOMS once its rooms are
    /// loaded; meanwhile the table says what the client waits for.
    @Test func theNoRoomHintSaysTheRoomListIsOnItsWay() throws {
        var app = PlayApp(session: ClientSession(name: "dave", room: nil), colorMode: .plain)
        app.handle(.resize(rows: 24, columns: 120), now: 0)
        app.handle(.connected, now: 0)
        app.handle(.serverLine(Substring("OK hello version=2 id=4 name=dave server=puzzle-room")), now: 0)
        #expect(app.session.awaitsRoomList)
        let waiting = SceneFixtures.rows(SceneRenderer.render(app.scene(now: 0))).joined(separator: "\n")
        #expect(waiting.contains("waiting for the server's list of rooms"), "\(waiting)")
        for line in ["S room lobby kind=jigsaw size=3x3 rotation=off players=0 password=no puzzle=0 progress=2/9",
                     "S room duo kind=jigsaw size=2x2 rotation=off players=1 password=no puzzle=0 progress=0/4", "OK rooms 2"] {
            app.handle(.serverLine(Substring(line)), now: 1)
        }
        #expect(!app.session.awaitsRoomList)
        let listed = SceneFixtures.rows(SceneRenderer.render(app.scene(now: 1))).joined(separator: "\n")
        #expect(listed.contains("/join NAME to play") && !listed.contains("waiting for the server's list"))
    }

    @Test func aMouseReleaseAfterTheHoldLapsedSaysWhy() throws {
        var (app, st) = try Self.joined()
        let (row, column) = try Self.screenCell(of: Self.middle(of: 3, st), in: app)
        app.handle(.key(.mouse(MouseEvent(button: .left, action: .press, row: row, column: column))), now: 1)
        #expect(app.takeRequests() == [.grab(3)])
        Self.grant(3, to: &app, seq: st.seq + 1, now: 2)
        app.handle(.serverLine(Substring("EV \(st.seq + 2) expired 3 1")), now: 30_002)
        app.handle(.key(.mouse(MouseEvent(button: .left, action: .release, row: row, column: column))), now: 30_100)
        #expect(!app.takeRequests().contains { if case .drop = $0 { return true } else { return false } })
        #expect(app.log.shownLines.last?.text == "piece 3 was not dropped: your hold had lapsed and it went back where you took it")
    }

    /// The players window takes the WHO listing by what its lines are, so the reply of a
    /// command typed before it (an "ok" on its way) neither ends the listing nor joins it.
    @Test func anEarlierCommandsReplyDoesNotEndTheListing() throws {
        var (app, st) = try Self.joined()
        Self.type("/grab 1", into: &app, now: 1)
        Self.type("/who", into: &app, now: 1)
        #expect(app.takeRequests() == [.grab(1), .who])
        #expect(app.overlay?.collecting == true)
        Self.grant(1, to: &app, seq: st.seq + 1, now: 2)
        for line in ["S who 1 alice moves=0 holding=1", "S who 2 bob moves=0 holding=-", "OK who 2"] {
            app.handle(.serverLine(Substring(line)), now: 2)
        }
        #expect(app.overlay?.lines == ["alice (#1)  0 moves  holds piece 1", "bob (#2)  0 moves"])
        #expect(app.overlay?.collecting == false)
        #expect(!app.log.shownLines.contains { $0.text.contains("who") }, "\(app.log.shownLines.map(\.text))")
    }

    /// The rooms window reads as the start-up picker does, not as the wire's `key=value` text.
    @Test func theRoomsWindowShowsRoomsAsAPlayerReadsThem() throws {
        var (app, _) = try Self.joined()
        Self.type("/rooms", into: &app, now: 1)
        #expect(app.takeRequests() == [.rooms])
        for line in ["S room duo kind=jigsaw size=2x2 rotation=off players=2 password=no puzzle=0 progress=0/4",
                     "S room den kind=swap size=3x3 rotation=on players=1 password=yes puzzle=2 progress=9/9 solved",
                     "OK rooms 2"] {
            app.handle(.serverLine(Substring(line)), now: 2)
        }
        #expect(app.overlay?.lines == ["duo  jigsaw 2x2  2 players  0/4 placed", "den  swap 3x3  rotation  1 player  9/9 placed  solved  password"])
        #expect(!(app.overlay?.lines.joined().contains("=") ?? true))
    }

    /// A lost link is retried after 0.25 s, then after twice as long; the banner says when.
    @Test func aLostLinkIsRetriedWithBackoff() throws {
        var (app, _) = try Self.joined()
        app.handle(.connectionLost("the connection was cut"), now: 100)
        #expect(!app.isConnected)
        #expect(!app.wantsConnection(now: 349) && app.wantsConnection(now: 350))
        #expect(app.scene(now: 100).connectionNotice == "connection lost: reconnecting, attempt 1 in 0.2 s")
        app.handle(.connectFailed("the server is not answering"), now: 350)
        #expect(!app.wantsConnection(now: 849) && app.wantsConnection(now: 850))
        #expect(app.log.shownLines.suffix(2).map(\.text) == ["connection lost: the connection was cut", "cannot connect: the server is not answering"])
        app.handle(.connected, now: 850)
        #expect(app.takeRequests().map(\.line) == ["HELLO 2 alice", "JOIN duo"])
    }

    /// A link that stayed up a while is retried at once (0.25 s), not after the last wait.
    @Test func aLinkThatStayedUpIsRetriedWithoutTheLongWait() throws {
        var (app, _) = try Self.joined()
        app.handle(.connectionLost("the connection was cut"), now: 100)
        app.handle(.connectFailed("the server is not answering"), now: 350)
        app.handle(.connected, now: 850)
        for line in ["OK hello version=2 id=1 name=alice server=puzzle-room"] { app.handle(.serverLine(Substring(line)), now: 850) }
        // Not joined yet: a drop right after the greeting backs off further (1 s).
        app.handle(.connectionLost("the connection was cut"), now: 900)
        #expect(!app.wantsConnection(now: 1899) && app.wantsConnection(now: 1900))
        app.handle(.connected, now: 1900)
        let joined = try Self.joined().1
        for line in ["OK hello version=2 id=1 name=alice server=puzzle-room"] + SnapshotCodec.lines(RoomSnapshot(name: "duo", state: joined, picture: nil), now: 1900)
            + ["OK joined duo id=1 seq=\(joined.seq)"] {
            app.handle(.serverLine(Substring(line)), now: 1900)
        }
        #expect(app.scene(now: 1900).connectionNotice == nil)
        // Up for 10 s and more: lost again, retried after 0.25 s.
        app.handle(.connectionLost("the connection was cut"), now: 12_000)
        #expect(!app.wantsConnection(now: 12_249) && app.wantsConnection(now: 12_250))
    }

    /// Click mode asks the terminal for motion without a button; hold mode does not.
    @Test func clickModeAsksTheDriverForMouseMotion() throws {
        var (app, _) = try Self.joined()
        #expect(!app.wantsMouseMotion)
        Self.type("/mouse click", into: &app, now: 1)
        #expect(app.wantsMouseMotion)
        Self.type("/mouse hold", into: &app, now: 2)
        #expect(!app.wantsMouseMotion)
    }

    /// `/quit` with the link down ends the game at once (there is no server to say goodbye to).
    @Test func quitWithTheLinkDownEndsAtOnce() throws {
        var (app, _) = try Self.joined()
        app.handle(.connectionLost("the connection was cut"), now: 10)
        Self.type("/quit", into: &app, now: 11)
        #expect(app.isFinished)
        #expect(app.exitStatus == 0)
        #expect(app.takeRequests().isEmpty)
    }
}
