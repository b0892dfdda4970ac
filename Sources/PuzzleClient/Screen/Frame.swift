/// One screenful of styled characters, drawn by the client and turned into terminal output by
/// `diff(from:colorMode:)`.
///
/// Every cell is one terminal column. A wide character (`DisplayWidth` 2: CJK, emoji) takes its
/// cell and the next, which holds a continuation (`Cell.isContinuation`) and is drawn by it. The
/// frame keeps this whole on every write: overwriting either half of a wide character blanks
/// the other half, and a wide character that would straddle the right edge becomes a space, so
/// the terminal never shows a torn glyph.
public struct Frame: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Cells row by row; `cells[row * width + column]`.
    public internal(set) var cells: [Cell]
    /// Where the terminal cursor should be shown after drawing, or nil to hide it.
    public var cursor: Position?

    /// A frame of `width` × `height` cells all set to `fill` (blank by default), cursor hidden.
    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
        self.cursor = nil
    }

    /// The cell at `row`, `column`. Reading outside the frame gives a blank cell; writing outside
    /// is ignored, so drawing code can clip by simply writing.
    public subscript(row: Int, column: Int) -> Cell {
        get {
            guard contains(row: row, column: column) else { return .blank }
            return cells[row * width + column]
        }
        set {
            guard contains(row: row, column: column) else { return }
            var cell = newValue
            var columns = cell.isContinuation ? 1 : DisplayWidth.of(cell.character)
            // A continuation is made only here, next to its wide character; a zero-width
            // character would put the terminal's cursor out of step with the cells.
            if cell.isContinuation || columns == 0 || (columns == 2 && column + 1 >= width) {
                cell = Cell(" ", style: cell.style)
                columns = 1
            }
            let index = row * width + column
            unlink(index, column: column)
            cells[index] = cell
            if columns == 2 {
                unlink(index + 1, column: column + 1)
                cells[index + 1] = Cell.continuation(style: cell.style)
            }
        }
    }

    /// Before the cell at `index` (in column `column`) is overwritten: blanks the other half of
    /// the wide character it is part of, if any.
    private mutating func unlink(_ index: Int, column: Int) {
        let cell = cells[index]
        if cell.isContinuation {
            if column > 0 { cells[index - 1] = Cell(" ", style: cells[index - 1].style) }
        } else if column + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
    }

    /// Before the columns `columns` of `row` are overwritten with narrow cells: blanks the
    /// halves of wide characters cut by the range's ends.
    mutating func unlinkEnds(row: Int, columns: Range<Int>) {
        guard !columns.isEmpty else { return }
        unlink(row * width + columns.lowerBound, column: columns.lowerBound)
        unlink(row * width + columns.upperBound - 1, column: columns.upperBound - 1)
    }

    /// Whether `row`, `column` lies inside the frame.
    public func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < height && column >= 0 && column < width
    }
}

extension Frame {
    /// A zero-based screen position.
    public struct Position: Hashable, Sendable {
        /// Zero-based row from the top.
        public var row: Int
        /// Zero-based column from the left.
        public var column: Int

        /// A position at `row`, `column`.
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }
}
