import Testing
@testable import PuzzleClient

/// The display width table against characters whose width is known.
@Suite struct DisplayWidthTests {
    @Test func knownCharactersTakeTheirColumns() {
        let cases: [(Character, Int, String)] = [
            ("a", 1, "ASCII"),
            ("é", 1, "precomposed e acute"),
            ("e\u{301}", 1, "e and a combining acute, one Character"),
            ("你", 2, "CJK ideograph"),
            ("한", 2, "Hangul syllable"),
            ("ア", 2, "katakana"),
            ("👋", 2, "emoji presentation"),
            ("👍🏽", 2, "emoji with a skin tone modifier"),
            ("👨‍👩‍👧", 2, "family joined by ZWJ"),
            ("🇫🇷", 2, "flag: two regional indicators"),
            ("１", 2, "fullwidth digit"),
            ("\u{200B}", 0, "zero width space"),
            ("\u{200D}", 0, "zero width joiner alone"),
            ("\u{FE0F}", 0, "variation selector alone"),
            ("☺", 1, "text-default emoji without VS16"),
            ("❤️", 2, "heavy heart with VS16"),
            ("▀", 1, "half block"),
            ("ｱ", 1, "halfwidth katakana"),
            ("\u{AD}", 1, "soft hyphen, shown by terminals"),
        ]
        for (character, width, what) in cases {
            #expect(DisplayWidth.of(character) == width, "\(what): \(character.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func stringsAddTheirCharacters() {
        #expect(DisplayWidth.of("héllo 👋 你好 ok") == 16)
        #expect(DisplayWidth.of("你好你好 typing") == 15)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func aPrefixNeverEndsInHalfAWideCharacter() {
        #expect(DisplayWidth.prefix("你好 ok", columns: 3) == "你")
        #expect(DisplayWidth.prefix("你好 ok", columns: 4) == "你好")
        #expect(DisplayWidth.prefix("ab", columns: 5) == "ab")
        #expect(DisplayWidth.padded("a你好", columns: 4) == "a你 ")
    }

    /// The table is sorted and disjoint, as the binary search needs.
    @Test func theWideTableIsSortedAndDisjoint() {
        for (a, b) in zip(DisplayWidth.wide, DisplayWidth.wide.dropFirst()) {
            #expect(a.upperBound < b.lowerBound)
        }
        #expect(DisplayWidth.isWide("\u{1100}") && DisplayWidth.isWide("\u{3FFFD}") && !DisplayWidth.isWide("\u{3FFFE}"))
    }
}

/// The frame and its diff with wide characters: each drawn once, never torn.
@Suite struct WideFrameTests {
    @Test func aWideCharacterTakesTwoCells() {
        var frame = Frame(width: 6, height: 1)
        let end = frame.put("a你b", row: 0, column: 0)
        #expect(end == 4)
        #expect(frame[0, 1].character == "你" && frame[0, 2].isContinuation && frame[0, 3].character == "b")
        #expect(SceneFixtures.rows(frame) == ["a你b  "])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var frame = Frame(width: 6, height: 1)
        frame.put("你好", row: 0, column: 0)
        frame[0, 1] = Frame.Cell("x")  // the right half of 你
        #expect(SceneFixtures.rows(frame) == [" x好  "])
        frame[0, 2] = Frame.Cell("y")  // the left half of 好
        #expect(SceneFixtures.rows(frame) == [" xy   "])
        #expect(!frame.cells.contains { $0.isContinuation })
        frame.put("好", row: 0, column: 3)
        frame.put("你", row: 0, column: 2)  // over y and the left half of 好
        #expect(SceneFixtures.rows(frame) == [" x你  "])
        frame.fill(row: 0, column: 3, height: 1, width: 2, with: Frame.Cell("-"))
        #expect(SceneFixtures.rows(frame) == [" x -- "])
    }

    @Test func aWideCharacterNeverStraddlesAnEdge() {
        var frame = Frame(width: 4, height: 1)
        frame.put("ab你", row: 0, column: 1)
        #expect(SceneFixtures.rows(frame) == [" ab "])
        frame.put("你x", row: 0, column: -1)
        #expect(SceneFixtures.rows(frame) == [" xb "])
    }

    /// Text that could move the terminal's cursor or reorder a line is never written as it is:
    /// controls and line separators show as "?", bidi overrides (zero width) are left out.
    @Test func separatorsAndBidiOverridesCannotDisturbTheScreen() {
        var frame = Frame(width: 6, height: 1)
        frame.put("a\u{2028}b\u{202E}cd", row: 0, column: 0)
        let bytes = String(decoding: frame.diff(from: nil, colorMode: .plain), as: UTF8.self)
        #expect(bytes.contains("a?bcd") && !bytes.contains("\u{2028}") && !bytes.contains("\u{202E}"))
    }

    /// Zero-width characters take no cell (a cell of its own would put the terminal's cursor
    /// out of step).
    @Test func zeroWidthCharactersTakeNoCell() {
        var frame = Frame(width: 4, height: 1)
        frame.put("a\u{200B}b", row: 0, column: 0)
        #expect(SceneFixtures.rows(frame) == ["ab  "])
    }

    private func screen(after frames: [Frame]) -> TerminalModel {
        var model = TerminalModel(width: frames[0].width, height: frames[0].height)
        var renderer = FrameRenderer(colorMode: .trueColor)
        for frame in frames { model.feed(renderer.render(frame)) }
        return model
    }

    /// Wide characters replaced by narrow ones and back: the bytes sent, read by a terminal,
    /// give the frame's screen, and a wide character is written once.
    @Test func theDiffTurnsWideIntoNarrowAndBack() {
        var wide = Frame(width: 12, height: 2)
        wide.put("你好 abc 👋", row: 0, column: 0)
        wide.put("ok", row: 1, column: 0)
        var narrow = wide
        narrow.put("nextb", row: 0, column: 0)  // over 你好 and the space
        var mixed = narrow
        mixed.put("x👍🏽１", row: 0, column: 1)
        for sequence in [[wide, narrow], [narrow, wide], [wide, narrow, mixed, wide], [mixed, narrow]] {
            let model = screen(after: sequence)
            #expect(model.rows == SceneFixtures.rows(sequence.last!), "\(sequence.map(SceneFixtures.rows))")
        }
        let bytes = String(decoding: wide.diff(from: nil, colorMode: .trueColor), as: UTF8.self)
        #expect(bytes.components(separatedBy: "你").count == 2 && bytes.components(separatedBy: "👋").count == 2)
        // The cell after a wide one is placed explicitly, not by counting on the terminal's width.
        #expect(bytes.contains("你\u{1B}[1;3H好"))
    }

    /// Many random frames of mixed text, each sent as a difference from the last: the
    /// terminal always shows exactly the frame.
    @Test func randomMixedTextFramesReachTheTerminalExactly() {
        var rng = SplitMix(seed: 16)
        let words = ["a", "héllo", "👋", "你好", "e\u{301}", "１２", "👨‍👩‍👧", "❤️", "ok", " ", "▀▀", "👍🏽"]
        var frames: [Frame] = []
        var frame = Frame(width: 17, height: 4)
        for _ in 0..<300 {
            let row = rng.next(below: 4), column = rng.next(below: 19) - 1
            let text = (0..<(1 + rng.next(below: 4))).map { _ in words[rng.next(below: words.count)] }.joined()
            if rng.next(below: 5) == 0 {
                frame.fill(row: row, column: column, height: 1, width: rng.next(below: 4), with: Frame.Cell("-"))
            } else {
                frame.put(text, row: row, column: column, style: Frame.Style(bold: rng.next(below: 2) == 0))
            }
            frames.append(frame)
        }
        var model = TerminalModel(width: 17, height: 4)
        var renderer = FrameRenderer(colorMode: .trueColor)
        for (i, frame) in frames.enumerated() {
            model.feed(renderer.render(frame))
            #expect(model.rows == SceneFixtures.rows(frame), "frame \(i)")
            if model.rows != SceneFixtures.rows(frame) { break }
            #expect(SceneFixtures.rows(frame).allSatisfy { DisplayWidth.of($0) == 17 })
        }
    }
}

/// A deterministic generator for the random frames.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// The prompt and the message pane measure text in columns.
@Suite struct WideTextLayoutTests {
    @Test func thePromptShowsWideTextWholeWithTheCursorAfterIt() {
        var editor = LineEditor()
        editor.setText("你好你好 typing")
        var view = editor.visibleSlice(width: 78)
        #expect(view.text == "你好你好 typing" && view.cursorColumn == 15)
        // Narrow: the view scrolls by columns and never cuts a wide character.
        view = editor.visibleSlice(width: 8)
        #expect(view.text == " typing" && view.cursorColumn == 7)
        editor.moveHome()
        editor.moveRight()
        view = editor.visibleSlice(width: 5)
        #expect(view.text == "你好" && view.cursorColumn == 2)
        for _ in 0..<2 { editor.moveRight() }
        view = editor.visibleSlice(width: 5)
        #expect(view.cursorColumn <= 4 && DisplayWidth.of(view.text) <= 5)
        #expect(view.text.hasPrefix("好你") && view.cursorColumn == 4)
    }

    @Test func messagesWrapByColumns() {
        #expect(MessageWrap.wrap("<bob> 你好 abc 👋 def", width: 12) == ["<bob> 你好", "  abc 👋 def"])
        #expect(MessageWrap.wrap("你好你好你好", width: 5) == ["你好", "  你", "  好", "  你", "  好"])
        for line in MessageWrap.wrap("héllo 👋 你好 ok 你好 abc 👋 def", width: 9) {
            #expect(DisplayWidth.of(line) <= 9, "\(line)")
        }
    }

    @Test func windowsMeasureTheirLinesInColumns() {
        let layout = SceneLayout(width: 80, height: 24)
        let overlay = Overlay(title: "players", lines: [String(repeating: "你", count: 20)])
        #expect(overlay.width(in: layout) == 44)
        let narrow = Overlay(title: "x", lines: [String(repeating: "你", count: 50)])
        for line in narrow.wrappedLines(in: layout) { #expect(DisplayWidth.of(line) <= narrow.width(in: layout) - 4) }
    }
}
