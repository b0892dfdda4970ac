import Testing
@testable import PuzzleClient

/// Text over the table's pixels takes the columns the rest of the frame gives it
/// (`DisplayWidth`): a wide character two cells, a mark none.
@Suite struct PixelCanvasTextTests {
    static func shown(_ text: String, width: Int = 12, at column: Int = 0) -> (row: String, columns: Int) {
        var canvas = PixelCanvas(width: width, rows: 1)
        let columns = canvas.put(text, row: 0, column: column, foreground: nil)
        var frame = Frame(width: width, height: 1)
        canvas.compose(into: &frame, top: 0, left: 0, plain: true)
        return (SceneFixtures.rows(frame)[0], columns)
    }

    @Test func wideCharactersTakeTwoCellsAndTheTextAfterThemStaysWhole() {
        let (row, columns) = Self.shown("你a好b", at: 1)
        #expect(columns == 6)
        #expect(row == " 你a好b     ")
    }

    @Test func aWideCharacterCrossingTheRightEdgeIsASpace() {
        let (row, columns) = Self.shown("ab你", width: 3)
        #expect(row == "ab ")
        #expect(columns == 4)
    }

    @Test func zeroWidthCharactersTakeNoCell() {
        // U+200B between the letters takes no column (it would put the terminal's cursor out of step).
        let (row, columns) = Self.shown("a\u{200B}b", width: 4)
        #expect(row == "ab  ")
        #expect(columns == 2)
    }
}
