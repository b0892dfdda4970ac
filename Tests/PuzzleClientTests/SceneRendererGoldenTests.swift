import Testing
import PuzzleCore
@testable import PuzzleClient

/// Golden frames: two players dragging at once, both drop targets highlighted,
/// on a swap board and a jigsaw board, with and without colours, fitted to the
/// terminal as a freshly joined client shows them. Each held piece is whole in
/// a ring of its holder's colour, named above (below when the row above is
/// off the view); each target is corner brackets round its cell (on the 2x2
/// jigsaw alice's corner piece aims at the corner cell (0,0), not where it lies);
/// rulers number the board's rows and columns beside it.
@Suite struct SceneRendererGoldenTests {
    static let swapPlain: [String] = [
            " lobby | puzzle 0 swap 2x2 | 0/4 0% | 1:23 | room moves 0 | rtt ",
            "          +  0   @++++=+++@            |players                 ",
            "                 @+-=1====@            |## alice (you)          ",
            "        0      ##########=@            |   moves 0  has piece 0 ",
            "               #+@+++-++#=@            |@@ bob                  ",
            "          +    #+@@@@@@@##@            |   moves 0  has piece 1 ",
            "               #=:=0====#              |Tab grab  arrows move   ",
            "        1      #-:=-===:#              |Enter drop  S-arrows pan",
            "               ##########              |^Up ^Down zoom  ^N nums ",
            "               #alice                  |Esc release  /help      ",
            "----------------------------------------------------------------",
            "<bob> over here                                                 ",
            "alice grabbed piece 0                                           ",
            ">                                                               ",
        ]

    static let swapColor: [String] = [
            " lobby | puzzle 0 swap 2x2 | 0/4 0% | 1:23 | room moves 0 | rtt ",
            "             0  ▀ ▀▀▀▀▀▀▀▀ ▀           |players                 ",
            "                  ▀▀▀1▀▀▀▀             |## alice (you)          ",
            "        0      ▀▀▀▀▀▀▀▀▀▀▀             |   moves 0  has piece 0 ",
            "                ▀▀▀▀▀▀▀▀ ▀             |@@ bob                  ",
            "                ▀▀▀▀▀▀▀▀ ▀▀            |   moves 0  has piece 1 ",
            "                ▀▀▀0▀▀▀▀               |Tab grab  arrows move   ",
            "        1       ▀▀▀▀▀▀▀▀               |Enter drop  S-arrows pan",
            "               ▀▀▀▀▀▀▀▀▀▀ ▄▄           |^Up ^Down zoom  ^N nums ",
            "               alice      ▀            |Esc release  /help      ",
            "----------------------------------------------------------------",
            "<bob> over here                                                 ",
            "alice grabbed piece 0                                           ",
            ">                                                               ",
        ]

    static let jigsawPlain: [String] = [
            " lobby | puzzle 0 jigsaw 2x2 | 0/4 0% | 1:23 | room moves 0 | rt",
            "                                       |players                 ",
            " =+====                                |## alice (you)          ",
            " =-=-==                                |   moves 0  has piece 0 ",
            " ==2==+        0     1                 |@@ bob                  ",
            " +++=++      #@@@@@@@@  @              |   moves 0  has piece 1 ",
            " +=-==-       @+=1:=+@                 |                        ",
            "+==3==-    0  @==########              |                        ",
            " +++===      #@@@#@@@@+-#              |                        ",
            "                 #=+0===#              |                        ",
            "           1     ########              |                        ",
            "                                       |                        ",
            "                 #alice                |Tab grab  arrows move   ",
            "                                       |Enter drop  S-arrows pan",
            "                                       |^Up ^Down zoom  ^N nums ",
            "                                       |Esc release  /help      ",
            "----------------------------------------------------------------",
            "<bob> over here                                                 ",
            "alice grabbed piece 0                                           ",
            "                                                                ",
            "                                                                ",
            ">                                                               ",
        ]

    static let jigsawColor: [String] = [
            " lobby | puzzle 0 jigsaw 2x2 | 0/4 0% | 1:23 | room moves 0 | rt",
            "                                       |players                 ",
            " ▄▄ ▀▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄  |## alice (you)          ",
            " ▀▀▀▀▀▀                                |   moves 0  has piece 0 ",
            " ▀▀2▀▀▀    ▀▀▀ 0 ▀▀▀▀1  ▀▀▀            |@@ bob                  ",
            " ▀▀▀▀▀▀     ▀▀ ▀▀▀▀▀▀ ▀▀▀              |   moves 0  has piece 1 ",
            " ▀▀▀▀▀▀▀      ▀▀▀1▀▀▀ ▀                |                        ",
            " ▀▀3▀▀▀    0  ▀▀▀ ▀▀▀▀▀▀               |                        ",
            " ▀▀▀▀▀▀     ▀▀ ▀▀ ▀▀▀▀▀▀               |                        ",
            "  ▀▀▀▀▀▀   ▀▀▀    ▀▀0▀▀▀ ▀▀            |                        ",
            "           1  bob ▀▀▀▀▀▀               |                        ",
            "             ▀▀▀▀▀▀▀▀▀▀▀▀▀             |                        ",
            "                 alice                 |Tab grab  arrows move   ",
            "                                       |Enter drop  S-arrows pan",
            " ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀  |^Up ^Down zoom  ^N nums ",
            "                                       |Esc release  /help      ",
            "----------------------------------------------------------------",
            "<bob> over here                                                 ",
            "alice grabbed piece 0                                           ",
            "                                                                ",
            "                                                                ",
            ">                                                               ",
        ]

    func frame(_ kind: PuzzleKind, _ mode: ColorMode) throws -> Frame {
        let st = try SceneFixtures.twoDrags(kind: kind)
        return SceneRenderer.render(SceneFixtures.scene(st, colorMode: mode, width: 64, height: kind == .swap ? 14 : 22))
    }

    @Test func swapBoardPlain() throws {
        let f = try frame(.swap, .plain)
        #expect(SceneFixtures.rows(f) == Self.swapPlain)
    }

    @Test func swapBoardColor() throws {
        let f = try frame(.swap, .trueColor)
        #expect(SceneFixtures.rows(f) == Self.swapColor)
        let alice = PlayerPalette.color(of: SceneFixtures.alice, in: [:]), bob = PlayerPalette.color(of: SceneFixtures.bob, in: [:])
        // Each holder's colour shows (outline, target frame, name label), in half-blocks.
        func shows(_ c: TerminalColor) -> Bool { f.cells.contains { $0.style.background == c || $0.style.foreground == c } }
        #expect(shows(alice) && shows(bob))
        #expect(f.cells.contains { $0.character == "▀" })
        // The held piece is named in its holder's colour; bob's name would cover
        // alice's piece above his and below it: his ring's colour says it is his.
        #expect(f.cells.contains { $0.character == "a" && $0.style.background == alice })
        #expect(!SceneFixtures.rows(f)[1..<10].contains { $0.prefix(39).contains("bob") })
        #expect(f[0, 0].style.inverse)  // the status line
    }

    /// The key list offers rotation only where the puzzle has it.
    @Test func theKeyListOffersRotationOnlyWhereThereIsSome() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, rotation: true)
        let turning = RoomState(settings: RoomSettings(first: spec, seed: 3))
        let rows = SceneFixtures.rows(SceneRenderer.render(SceneFixtures.scene(turning, colorMode: .plain, width: 64, height: 22)))
        #expect(rows.contains { $0.hasSuffix("|Enter drop  ^R turn     ") })
        let flat = SceneFixtures.rows(try frame(.jigsaw, .plain))
        #expect(flat.contains { $0.hasSuffix("|Enter drop  S-arrows pan") } && !flat.contains { $0.contains("^R turn") })
    }

    @Test func jigsawBoardPlain() throws {
        let f = try frame(.jigsaw, .plain)
        #expect(SceneFixtures.rows(f) == Self.jigsawPlain)
        // Both highlights, each in its player's marker, and no colours at all.
        #expect(f.cells.contains { $0.character == "#" } && f.cells.contains { $0.character == "@" })
        let bytes = String(decoding: f.diff(from: nil, colorMode: .plain), as: UTF8.self)
        #expect(!bytes.contains("38;") && !bytes.contains("48;"))
    }

    @Test func jigsawBoardColor() throws {
        let f = try frame(.jigsaw, .trueColor)
        #expect(SceneFixtures.rows(f) == Self.jigsawColor)
        let alice = PlayerPalette.color(of: SceneFixtures.alice, in: [:]), bob = PlayerPalette.color(of: SceneFixtures.bob, in: [:])
        // Each player's colour: a drop-target frame plus their piece's outline, as half-block pixels.
        let aliceCells = f.cells.filter { $0.style.background == alice || $0.style.foreground == alice }.count
        let bobCells = f.cells.filter { $0.style.background == bob || $0.style.foreground == bob }.count
        #expect(aliceCells > 12)
        #expect(bobCells > 12)
    }

    @Test func tooSmallTerminalSaysSo() throws {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        let f = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .plain, width: 30, height: 8))
        #expect(SceneFixtures.rows(f).contains { $0.contains("terminal too small") })
    }
}

/// While the link is down the clock stands where it was when it dropped: the
/// server may count nothing meanwhile, and a clock that ran on could jump back.
@Suite struct StoppedClockTests {
    @Test func theClockStopsWhileTheLinkIsDown() throws {
        var scene = SceneFixtures.scene(try SceneFixtures.twoDrags(kind: .jigsaw), colorMode: .plain, width: 120, height: 30)
        func status() -> String { SceneFixtures.rows(SceneRenderer.render(scene))[0] }
        #expect(status().contains("| 1:23 |"))
        scene.clockStoppedAt = 80_000
        scene.now = 95_000
        #expect(status().contains("| 1:20 |"), "\(status())")
        scene.clockStoppedAt = nil
        #expect(status().contains("| 1:35 |"))
    }
}

/// The solved banner names the commands that go on: the next puzzle, the replay.
@Suite struct SolvedBannerTests {
    @Test func theBannerSaysHowToStartTheNextPuzzleOrWatchItAgain() throws {
        // 80 columns (the panel takes 25): every line whole.
        var scene = SceneFixtures.scene(try SceneFixtures.twoDrags(kind: .jigsaw), colorMode: .plain, width: 80, height: 24)
        scene.solvedBanner = "puzzle 0 solved in 12.3 s"
        var rows = SceneFixtures.rows(SceneRenderer.render(scene))
        var at = try #require(rows.firstIndex { $0.contains(" *** puzzle 0 solved in 12.3 s *** ") })
        #expect(rows[at + 1].contains(" /next: next puzzle  Ctrl-O: watch it again "))
        // Once the server said them, the numbers: moves, who placed how many.
        scene.solvedStats = "9 moves; placed: alice 6, bob 3"
        rows = SceneFixtures.rows(SceneRenderer.render(scene))
        at = try #require(rows.firstIndex { $0.contains(" *** puzzle 0 solved in 12.3 s *** ") })
        #expect(rows[at + 1].contains(" 9 moves; placed: alice 6, bob 3 "))
        #expect(rows[at + 2].contains(" /next: next puzzle  Ctrl-O: watch it again "))
    }

    /// A watcher is not offered what the server refuses it (NEXT, grabs,
    /// drops): the banner and the panel's keys say how to play instead.
    @Test func aWatcherIsToldHowToPlayNotToGrabOrStartTheNext() throws {
        var scene = SceneFixtures.scene(try SceneFixtures.twoDrags(kind: .jigsaw), colorMode: .plain, width: 80, height: 24)
        scene.watching = true
        var text = SceneFixtures.rows(SceneRenderer.render(scene)).joined(separator: "\n")
        #expect(text.contains("watching: /join to play"))
        #expect(!text.contains("Tab grab") && !text.contains("Enter drop") && !text.contains("Esc release"))
        scene.solvedBanner = "puzzle 0 solved in 12.3 s"
        text = SceneFixtures.rows(SceneRenderer.render(scene)).joined(separator: "\n")
        #expect(text.contains(" Ctrl-O: watch it again  /join: play "))
        #expect(!text.contains("/next"))
    }
}

/// A hold about to lapse is announced on the status line, counting down.
@Suite struct LeaseWarningTests {
    @Test func theStatusLineWarnsInTheLastFiveSecondsOfTheHoldersOwnLease() throws {
        let st = try SceneFixtures.twoDrags(kind: .jigsaw)
        var scene = SceneFixtures.scene(st, colorMode: .plain, width: 80, height: 24)
        func status() -> String { SceneFixtures.rows(SceneRenderer.render(scene))[0] }
        #expect(!status().contains("goes back"))
        scene.now = 86_000
        // Right after the room name, so that an 80-column terminal shows it whole.
        #expect(status().hasPrefix(" lobby | piece 0 goes back in 4 s | puzzle 0 "), "\(status())")
        scene.now = 89_999
        #expect(status().hasPrefix(" lobby | piece 0 goes back in 1 s | "))
        // Time is up: the server's `expired` comes next; no "0 s" meanwhile.
        scene.now = 90_000
        #expect(!status().contains("goes back"))
        // The link is down: a count that cannot be kept is not shown.
        scene.now = 86_000
        scene.connectionNotice = "connection lost: reconnecting"
        #expect(!status().contains("goes back"))
        scene.connectionNotice = nil
        // Bob's hold is his to watch: a spectator's status line says nothing of it.
        scene.myID = PlayerID(3)
        #expect(!status().contains("goes back"))
    }

    @Test func theHolderIsToldWhyItsPieceWentBack() throws {
        var session = ClientSession(name: "alice", room: "lobby")
        session.myID = SceneFixtures.alice
        let st = try SceneFixtures.twoDrags(kind: .jigsaw)
        #expect(EventText.line(.returned(piece: 0, by: SceneFixtures.alice, reason: .expired), time: 0, before: st, me: session.myID, names: session.displayName)
                == "your piece 0 went back: held 10.0 s without a move")
        #expect(EventText.line(.returned(piece: 1, by: SceneFixtures.bob, reason: .expired), time: 0, before: st, me: session.myID, names: session.displayName)
                == "player 2's hold on piece 1 expired")
    }
}

/// The window over the table: bordered, titled, above the table and the panel.
@Suite struct OverlayRenderingTests {
    @Test func theOverlayIsDrawnOverEverythingButThePrompt() throws {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        var scene = SceneFixtures.scene(st, colorMode: .plain, width: 64, height: 14)
        scene.overlay = Overlay(title: "players", lines: ["1 alice moves=0 holding=-", "2 bob moves=0 holding=0"])
        let rows = SceneFixtures.rows(SceneRenderer.render(scene))
        #expect(rows.contains { $0.contains("+- players ---") })
        #expect(rows.contains { $0.contains("| 1 alice moves=0 holding=-") })
        #expect(rows.contains { $0.contains("| 2 bob moves=0 holding=0") })
        #expect(rows.contains { $0.contains("Esc closes") })
        #expect(rows.last?.hasPrefix(">") == true)
        // Nothing of the panel or the table beside the window.
        let window = rows.indices.filter { rows[$0].contains("|") && rows[$0].trimmingCharacters(in: .whitespaces).hasPrefix("|") }
        #expect(!window.isEmpty && window.allSatisfy { rows[$0].trimmingCharacters(in: .whitespaces).hasSuffix("|") }, "\(rows)")
    }

    @Test func aLongListScrollsAndIsClipped() throws {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        var scene = SceneFixtures.scene(st, colorMode: .plain, width: 64, height: 14)
        scene.overlay = Overlay(title: "help", lines: (0..<40).map { "line \($0)" })
        scene.overlay?.scroll = 10
        let rows = SceneFixtures.rows(SceneRenderer.render(scene))
        #expect(rows.contains { $0.contains("| line 10") })
        #expect(!rows.contains { $0.contains("| line 9 ") })
        #expect(!rows.contains { $0.contains("| line 39") })
        #expect(rows.contains { $0.contains("Esc closes  PgUp/PgDn scroll") })
    }

    /// A window may use every row between the status line and the prompt (the
    /// messages are behind it while it is open): a 40-line help fits on 45 rows.
    @Test func theWindowUsesTheRowsOfTheMessagesToo() throws {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        var scene = SceneFixtures.scene(st, colorMode: .plain, width: 64, height: 45)
        scene.overlay = Overlay(title: "help", lines: (0..<40).map { "line \($0)" })
        let rows = SceneFixtures.rows(SceneRenderer.render(scene))
        #expect(rows.contains { $0.contains("| line 0 ") } && rows.contains { $0.contains("| line 39") })
        // All of it in view: nothing to page to, so no paging keys offered.
        #expect(rows.contains { $0.contains("| Esc closes ") } && !rows.contains { $0.contains("PgUp/PgDn") })
        #expect(rows[0].hasPrefix(" lobby |"))
        #expect(rows.last?.hasPrefix(">") == true)
    }

    /// Lines wider than the screen wrap inside the window, continuations under
    /// the line's second column, instead of being cut off.
    @Test func wideLinesWrapUnderTheirSecondColumn() throws {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        var scene = SceneFixtures.scene(st, colorMode: .plain, width: 40, height: 20)
        scene.overlay = Overlay(title: "help", lines: ["/drag X Y   move the held piece's corner to table point X Y"])
        let rows = SceneFixtures.rows(SceneRenderer.render(scene))
        let inside = rows.filter { $0.hasPrefix(" | ") }.map { String($0.dropFirst(3).prefix(34)) }
        #expect(inside.prefix(3) == ["/drag X Y   move the held piece's ",
                                     "            corner to table point ",
                                     "            X Y                   "])
    }

    /// The whole help fits an 80-column terminal without wrapping; where it
    /// does wrap (narrower), a labelled line continues after its label.
    @Test func theHelpFitsEightyColumnsAndWrapsUnderItsLabels() {
        let help = Overlay(title: "help", lines: ClientCommand.slashHelpLines(lid: true))
        #expect(help.wrappedLines(in: SceneLayout(width: 80, height: 24)) == ClientCommand.slashHelpLines(lid: true))
        let narrow = help.wrappedLines(in: SceneLayout(width: 50, height: 24))
        let mouse = narrow.firstIndex { $0.hasPrefix("mouse: ") }!
        #expect(narrow[mouse + 1].hasPrefix("       ") && narrow[mouse + 1].dropFirst(7).first != " ")
    }

    /// Paging stops at the last page, so one PgUp after too many PgDn moves at once.
    @Test func pagingStopsAtTheLastPage() {
        let layout = SceneLayout(width: 64, height: 14)
        var overlay = Overlay(title: "help", lines: (0..<40).map { "line \($0)" })
        let shown = overlay.visibleLines(in: layout)
        #expect(shown == 9)
        overlay.page(back: false, in: layout)
        #expect(overlay.scroll == shown - 1)
        for _ in 0..<20 { overlay.page(back: false, in: layout) }
        #expect(overlay.scroll == 40 - shown)
        overlay.page(back: true, in: layout)
        #expect(overlay.scroll == 40 - shown - (shown - 1))
        for _ in 0..<20 { overlay.page(back: true, in: layout) }
        #expect(overlay.scroll == 0)
    }
}

/// The message pane: a share of the screen, long lines wrapped, history scrolled back.
@Suite struct MessagePaneTests {
    @Test func longLinesWrapAtSpacesWithContinuationsIndented() {
        #expect(MessageWrap.wrap("one two three four", width: 9) == ["one two", "  three", "  four"])
        #expect(MessageWrap.wrap("abcdefghijkl", width: 5) == ["abcde", "  fgh", "  ijk", "  l"])
        #expect(MessageWrap.wrap("short", width: 20) == ["short"])
    }

    @Test func anOrdinaryTerminalShowsAtLeastFiveLines() {
        #expect(SceneLayout(width: 80, height: 24).messageLines >= 5)
        #expect(SceneLayout(width: 120, height: 40).messageLines >= 9)
    }

    @Test func thePaneShowsTheNewestAndScrollsBack() throws {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        var scene = SceneFixtures.scene(st, colorMode: .plain, width: 64, height: 24)
        scene.messages = (0..<30).map { OutputLine(kind: .chat, text: "<bob> message \($0)") }
            + [OutputLine(kind: .error, text: "error HELD: " + String(repeating: "x", count: 80))]
        var rows = SceneFixtures.rows(SceneRenderer.render(scene))
        // The error is wrapped over two lines, shown once, and newest last above the prompt.
        #expect(rows.filter { $0.hasPrefix("error HELD") }.count == 1)
        #expect(rows[rows.count - 2].hasPrefix("  xxxx"))
        #expect(rows.contains { $0.hasPrefix("<bob> message 29") })
        scene.messageScroll = 10
        rows = SceneFixtures.rows(SceneRenderer.render(scene))
        #expect(rows.contains { $0.hasPrefix("-- 10 lines more below (PgDn)") })
        #expect(rows.contains { $0.hasPrefix("<bob> message 20") })
        #expect(!rows.contains { $0.hasPrefix("<bob> message 29") })
    }
}
