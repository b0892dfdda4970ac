import Testing
import PuzzleCore
@testable import PuzzleClient

/// Golden frames with mixed text (accents, emoji, CJK, fullwidth) where text meets the grid:
/// the message pane, the prompt and its cursor, a window, the panel. Each frame is also sent
/// through the renderer to a terminal model: what a terminal shows is the frame, column for column.
@Suite struct WideTextGoldenTests {
    /// What bob, carol and the prompt had when the screen garbled (issue 16).
    static let chat: [OutputLine] = [
        OutputLine(kind: .event, text: "alice grabbed piece 1"),
        OutputLine(kind: .chat, text: "<bob> héllo 👋 你好 ok"),
        OutputLine(kind: .chat, text: "<bob> 你好 abc 👋 def"),
        OutputLine(kind: .chat, text: "<carol> next line"),
        // Wrapped mid-word where a wide character cannot straddle the edge: the last column blank.
        OutputLine(kind: .chat, text: "<bob> 👍🏽 ❤️ １２３ 👨‍👩‍👧 a" + String(repeating: "你好", count: 20) + " end"),
    ]

    static func scene(width: Int = 80, height: Int = 24) throws -> Scene {
        let st = try SceneFixtures.twoDrags(kind: .swap)
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: width, height: height)
        scene.messages = chat
        scene.editor.setText("你好你好 typing")
        return scene
    }

    /// The frame as a terminal shows it after the renderer's bytes (from a screen that showed
    /// `before`, if given): the same rows, the cursor where the frame puts it.
    static func shownRows(_ frame: Frame, after before: Frame? = nil) -> [String] {
        var model = TerminalModel(width: frame.width, height: frame.height)
        var renderer = FrameRenderer(colorMode: .trueColor)
        if let before { model.feed(renderer.render(before)) }
        model.feed(renderer.render(frame))
        if let cursor = frame.cursor { #expect(model.cursor == cursor) }
        return model.rows
    }

    @Test func theMessagesAndThePromptAt80x24() throws {
        let frame = SceneRenderer.render(try Self.scene())
        let rows = SceneFixtures.rows(frame)
        #expect(Array(rows[17...]) == [
            "--------------------------------------------------------------------------------",
            "<bob> 你好 abc 👋 def                                                           ",
            "<carol> next line                                                               ",
            "<bob> 👍🏽 ❤️ １２３ 👨‍👩‍👧                                                           ",
            "  a你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好 ",
            "  你好 end                                                                      ",
            "> 你好你好 typing                                                               ",
        ])
        // The cursor after the typed text: 2 for "> ", 15 for the text.
        #expect(frame.cursor == Frame.Position(row: 23, column: 17))
        #expect(rows.allSatisfy { DisplayWidth.of($0) == 80 })
        #expect(Self.shownRows(frame) == rows)
    }

    /// The pane scrolling on (a new line under the wide ones) leaves no fragments: the terminal
    /// shows the new frame exactly after the old one.
    @Test func scrollingTheMessagesLeavesNoFragments() throws {
        var scene = try Self.scene()
        let before = SceneRenderer.render(scene)
        scene.messages.append(OutputLine(kind: .event, text: "alice grabbed piece 1"))
        scene.editor.setText("你好你好你好 typing more")
        let after = SceneRenderer.render(scene)
        let rows = SceneFixtures.rows(after)
        #expect(Array(rows[18...]) == [
            "<carol> next line                                                               ",
            "<bob> 👍🏽 ❤️ １２３ 👨‍👩‍👧                                                           ",
            "  a你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好你好 ",
            "  你好 end                                                                      ",
            "alice grabbed piece 1                                                           ",
            "> 你好你好你好 typing more                                                      ",
        ])
        #expect(after.cursor == Frame.Position(row: 23, column: 26))
        #expect(Self.shownRows(after, after: before) == rows)
    }

    /// A window with wide text: measured in columns, wrapped inside its border, which stays
    /// straight.
    @Test func aWindowWithWideText() throws {
        var scene = try Self.scene()
        scene.overlay = Overlay(title: "players 你好", lines: ["1 alice moves=0 说: 你好", "2 bob " + String(repeating: "👋你", count: 30)])
        let frame = SceneRenderer.render(scene)
        let rows = SceneFixtures.rows(frame)
        let window = rows.filter { $0.hasPrefix(" +-") || $0.hasPrefix(" | ") }
        #expect(window == [
            " +- players 你好 -------------------------------------------------------------+ ",
            " | 1 alice moves=0 说: 你好                                                   | ",
            " | 2 bob                                                                      | ",
            " |   👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你 | ",
            " |   👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你👋你                         | ",
            " | Esc closes                                                                 | ",
            " +----------------------------------------------------------------------------+ ",
        ])
        #expect(rows.allSatisfy { DisplayWidth.of($0) == 80 })
        #expect(Self.shownRows(frame) == rows)
    }

    /// The status line and the solved banner, cut at the edge of the screen, never by half a
    /// wide character.
    @Test func theStatusLineAndBannerCutWideTextWhole() throws {
        var scene = try Self.scene(width: 40, height: 12)
        scene.room = "lobby"
        scene.solvedBanner = "你好" + String(repeating: "好", count: 30)
        let frame = SceneRenderer.render(scene)
        let rows = SceneFixtures.rows(frame)
        #expect(rows.allSatisfy { DisplayWidth.of($0) == 40 })
        #expect(Self.shownRows(frame) == rows)
    }
}

/// The panel shows every piece number whole (issue 16: "has piece 5050" read "has piece 50").
@Suite struct PanelNumberTests {
    static func room100(holding: [PlayerID: [Int]]) throws -> RoomState {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 100, cols: 100)
        var st = RoomState(settings: RoomSettings(first: spec, seed: 3))
        var events: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: SceneFixtures.alice, at: 0, into: &events)
        try st.perform(.join(name: "bob"), by: SceneFixtures.bob, at: 0, into: &events)
        for (player, pieces) in holding.sorted(by: { $0.key < $1.key }) {
            for piece in pieces { try st.perform(.grab(piece: piece), by: player, at: 1, into: &events) }
        }
        return st
    }

    /// The panel's columns of the rows under "players".
    static func panel(_ st: RoomState, width: Int, height: Int) -> [String] {
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: width, height: height)
        let layout = SceneLayout(width: width, height: height)
        let rows = SceneFixtures.rows(SceneRenderer.render(scene))
        return rows[1...6].map { String($0.dropFirst(layout.viewColumns + 1)) }
    }

    @Test(arguments: [(80, 24), (200, 60)])
    func aFourDigitPieceNumberIsShownWhole(width: Int, height: Int) throws {
        let st = try Self.room100(holding: [SceneFixtures.alice: [5050], SceneFixtures.bob: [9999]])
        #expect(Self.panel(st, width: width, height: height) == [
            "players                 ",
            "## alice (you)          ",
            "   moves 0              ",
            "   has piece 5050       ",
            "@@ bob                  ",
            "   moves 0              ",
        ])
    }

    @Test func shortNumbersStayBesideTheMovesAndLongListsBreakAfterACommaNeverInANumber() {
        #expect(SceneRenderer.panelDetails(moves: 3, holding: [12], width: 24) == ["   moves 3  has piece 12"])
        #expect(SceneRenderer.panelDetails(moves: 3, holding: [], width: 24) == ["   moves 3"])
        #expect(SceneRenderer.panelDetails(moves: 120, holding: [9997, 9998, 9999], width: 24)
                == ["   moves 120", "   has pieces 9997,9998,", "     9999"])
    }
}

/// A room with more players than the panel has rows says how many it left out
/// (a play test with 13 players lost the 13th without a word).
@Suite struct PanelOverflowTests {
    @Test func playersThePanelCannotShowAreCounted() throws {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 4, cols: 4), seed: 3))
        var events: [RoomEvent] = []
        for i in 1...13 { try st.perform(.join(name: "p\(i)"), by: PlayerID(i), at: 0, into: &events) }
        let width = 120, height = 40
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: width, height: height)
        let layout = SceneLayout(width: width, height: height)
        let panel = SceneFixtures.rows(SceneRenderer.render(scene)).map { String($0.dropFirst(layout.viewColumns + 1)) }
        let shown = panel.filter { $0.range(of: #"^\S\S p\d+"#, options: .regularExpression) != nil }.count
        #expect(shown < 13)
        #expect(panel.contains { $0.hasPrefix("+\(13 - shown) more (/who)") }, "\(panel)")
        // With room for everyone there is no note.
        let few = SceneFixtures.rows(SceneRenderer.render(SceneFixtures.scene(st, colorMode: .trueColor, width: 200, height: 60)))
        #expect(!few.contains { $0.contains(" more (/who)") })
    }
}
