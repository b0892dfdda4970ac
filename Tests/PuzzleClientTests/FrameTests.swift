import Testing
@testable import PuzzleClient

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

private let esc = "\u{1B}"
private let fullClear = "\(esc)[0m\(esc)[H\(esc)[2J"
private let hide = "\(esc)[?25l"
private let show = "\(esc)[?25h"

@Suite struct FrameDrawingTests {
    @Test func putClipsAtTheRightEdge() {
        var frame = Frame(width: 5, height: 2)
        let end = frame.put("hello", row: 1, column: 3)
        #expect(end == 8)
        #expect(frame[1, 3].character == "h")
        #expect(frame[1, 4].character == "e")
        #expect(frame[0, 3] == .blank)
    }

    @Test func putWithNegativeColumnAndOutsideRows() {
        var frame = Frame(width: 3, height: 1)
        frame.put("abcd", row: 0, column: -2)
        #expect(frame.cells.map(\.character) == ["c", "d", " "])
        frame.put("zz", row: 5, column: 0)
        frame.put("zz", row: -1, column: 0)
        #expect(frame.cells.map(\.character) == ["c", "d", " "])
    }

    @Test func putAppliesStyle() {
        var frame = Frame(width: 3, height: 1)
        let style = Frame.Style(bold: true)
        frame.put("ab", row: 0, column: 1, style: style)
        #expect(frame[0, 1] == Frame.Cell("a", style: style))
        #expect(frame[0, 0].style == .default)
    }

    @Test func fillClipsRectangle() {
        var frame = Frame(width: 4, height: 3)
        frame.fill(row: 1, column: 2, height: 5, width: 5, with: Frame.Cell("#"))
        let rows = (0..<3).map { row in String((0..<4).map { frame[row, $0].character }) }
        #expect(rows == ["    ", "  ##", "  ##"])
        frame.fill(row: -1, column: -1, height: 2, width: 2, with: Frame.Cell("@"))
        #expect(frame[0, 0].character == "@")
        #expect(frame[0, 1].character == " ")
    }

    @Test func outOfBoundsReadIsBlankAndWriteIgnored() {
        var frame = Frame(width: 2, height: 2)
        frame[5, 5] = Frame.Cell("x")
        #expect(frame[5, 5] == .blank)
        #expect(frame.cells.allSatisfy { $0 == .blank })
    }
}

@Suite struct FrameDiffTests {
    @Test func firstFrameClearsAndDrawsNonBlankCells() {
        var frame = Frame(width: 4, height: 2)
        frame.put("ab", row: 0, column: 0)
        frame.put("c", row: 1, column: 2)
        #expect(text(frame.diff(from: nil, colorMode: .trueColor))
            == "\(fullClear)\(esc)[1;1Hab\(esc)[2;3Hc\(hide)")
    }

    @Test func identicalFramesProduceNothing() {
        var frame = Frame(width: 4, height: 2)
        frame.put("ab", row: 0, column: 0, style: Frame.Style(foreground: TerminalColor(hex: 0x123456)))
        #expect(frame.diff(from: frame, colorMode: .trueColor).isEmpty)
        frame.cursor = Frame.Position(row: 1, column: 1)
        #expect(frame.diff(from: frame, colorMode: .palette16).isEmpty)
    }

    @Test func oneChangedCellIsOneMoveAndOneCharacter() {
        let before = Frame(width: 5, height: 3)
        var after = before
        after[1, 2] = Frame.Cell("X")
        #expect(text(after.diff(from: before, colorMode: .trueColor)) == "\(esc)[2;3HX")
    }

    @Test func runsOfChangesMoveOnlyAtTheirStart() {
        var before = Frame(width: 8, height: 1)
        before.put("abcdefgh", row: 0, column: 0)
        var after = before
        after.put("XY", row: 0, column: 1)
        after.put("Z", row: 0, column: 6)
        #expect(text(after.diff(from: before, colorMode: .trueColor)) == "\(esc)[1;2HXY\(esc)[1;7HZ")
    }

    @Test func writingTheLastColumnForcesAnExplicitMove() {
        let before = Frame(width: 2, height: 2)
        var after = before
        after[0, 1] = Frame.Cell("X")
        after[1, 0] = Frame.Cell("Y")
        #expect(text(after.diff(from: before, colorMode: .trueColor)) == "\(esc)[1;2HX\(esc)[2;1HY")
    }

    @Test func colourChangeInEachMode() {
        let before = Frame(width: 3, height: 1)
        var after = before
        let style = Frame.Style(foreground: TerminalColor(hex: 0xFF0000), background: TerminalColor(hex: 0x000000))
        after.put("ab", row: 0, column: 1, style: style)
        let expected: [ColorMode: String] = [
            .trueColor: "\(esc)[1;2H\(esc)[0;38;2;255;0;0;48;2;0;0;0mab\(esc)[0m",
            .palette256: "\(esc)[1;2H\(esc)[0;38;5;196;48;5;16mab\(esc)[0m",
            .palette16: "\(esc)[1;2H\(esc)[0;91;40mab\(esc)[0m",
            .plain: "\(esc)[1;2Hab",
        ]
        for mode in ColorMode.allCases {
            #expect(text(after.diff(from: before, colorMode: mode)) == expected[mode], "\(mode)")
        }
    }

    @Test func attributesSurvivePlainMode() {
        let before = Frame(width: 2, height: 1)
        var after = before
        after.put("a", row: 0, column: 0, style: Frame.Style(foreground: TerminalColor(hex: 0x00FF00), bold: true, underline: true, inverse: true))
        #expect(text(after.diff(from: before, colorMode: .plain)) == "\(esc)[1;1H\(esc)[0;1;4;7ma\(esc)[0m")
    }

    @Test func styleSwitchesWithinARun() {
        let before = Frame(width: 3, height: 1)
        var after = before
        after.put("a", row: 0, column: 0, style: Frame.Style(bold: true))
        after.put("b", row: 0, column: 1)
        after.put("c", row: 0, column: 2, style: Frame.Style(bold: true))
        #expect(text(after.diff(from: before, colorMode: .trueColor))
            == "\(esc)[1;1H\(esc)[0;1ma\(esc)[0mb\(esc)[0;1mc\(esc)[0m")
    }

    @Test func sizeChangeRedrawsEverything() {
        var small = Frame(width: 2, height: 1)
        small.put("ab", row: 0, column: 0)
        var large = Frame(width: 3, height: 1)
        large.put("ab", row: 0, column: 0)
        #expect(text(large.diff(from: small, colorMode: .trueColor)) == "\(fullClear)\(esc)[1;1Hab\(hide)")
    }

    @Test func cursorIsPlacedAndShown() {
        var frame = Frame(width: 3, height: 2)
        frame.cursor = Frame.Position(row: 1, column: 2)
        #expect(text(frame.diff(from: nil, colorMode: .trueColor)) == "\(fullClear)\(esc)[2;3H\(show)")

        var moved = frame
        moved.cursor = Frame.Position(row: 0, column: 0)
        #expect(text(moved.diff(from: frame, colorMode: .trueColor)) == "\(esc)[1;1H")

        var hidden = frame
        hidden.cursor = nil
        #expect(text(hidden.diff(from: frame, colorMode: .trueColor)) == hide)
        #expect(text(frame.diff(from: hidden, colorMode: .trueColor)) == "\(esc)[2;3H\(show)")
    }

    @Test func cursorIsRestoredAfterDrawing() {
        var before = Frame(width: 3, height: 2)
        before.cursor = Frame.Position(row: 1, column: 0)
        var after = before
        after[0, 0] = Frame.Cell("q")
        #expect(text(after.diff(from: before, colorMode: .trueColor)) == "\(esc)[1;1Hq\(esc)[2;1H")
    }

    @Test func controlCharactersAreNeutralised() {
        let before = Frame(width: 3, height: 1)
        var after = before
        after[0, 0] = Frame.Cell("\u{1B}")
        after[0, 1] = Frame.Cell("\u{9B}")
        after[0, 2] = Frame.Cell("é")
        #expect(text(after.diff(from: before, colorMode: .trueColor)) == "\(esc)[1;1H??é")
    }

    @Test func rendererDiffsAgainstItsLastFrame() {
        var renderer = FrameRenderer(colorMode: .palette16)
        var frame = Frame(width: 2, height: 1)
        frame.put("hi", row: 0, column: 0)
        #expect(text(renderer.render(frame)) == "\(esc)[?2026h\(fullClear)\(esc)[1;1Hhi\(hide)\(esc)[?2026l")
        #expect(renderer.render(frame).isEmpty)
        frame.put("o", row: 0, column: 1)
        #expect(text(renderer.render(frame)) == "\(esc)[?2026h\(esc)[1;2Ho\(esc)[?2026l")
        renderer.invalidate()
        #expect(text(renderer.render(frame)) == "\(esc)[?2026h\(fullClear)\(esc)[1;1Hho\(hide)\(esc)[?2026l")
    }
}

@Suite struct FramePlainModeTests {
    @Test func colourOnlyChangeIsInvisibleInPlainMode() {
        var before = Frame(width: 2, height: 1)
        before.put("ab", row: 0, column: 0)
        var after = before
        after.put("ab", row: 0, column: 0, style: Frame.Style(background: TerminalColor(hex: 0x0000FF)))
        #expect(after.diff(from: before, colorMode: .plain).isEmpty)
        #expect(!after.diff(from: before, colorMode: .palette16).isEmpty)
    }
}
