/// One screenful of styled characters, drawn by the client and turned into terminal output by
/// `diff(from:colorMode:)`.
///
/// Every cell is one terminal column; double-width characters are not accounted for, so callers
/// should put single-width characters only.
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
            cells[row * width + column] = newValue
        }
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
