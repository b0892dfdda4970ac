/// A cell of a board grid, addressed by row and column from the top left.
public struct Cell: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var row: Int
    public var col: Int

    public init(row: Int, col: Int) {
        self.row = row
        self.col = col
    }

    public static func < (a: Cell, b: Cell) -> Bool {
        (a.row, a.col) < (b.row, b.col)
    }

    public var description: String { "(\(row),\(col))" }
}

/// A point on the table, in table units (`TableGeometry.unitsPerCell` units per cell),
/// naming the top-left corner of a piece.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x),\(y))" }
}

/// The shape of the table a puzzle lies on: the board, a grid of rows × cols cells,
/// sits in the middle of the table with a margin around it where loose jigsaw
/// pieces wait. The margin is `marginRows` cells above and below the board and
/// `marginColumns` cells left and right of it (wider than tall, like a
/// terminal). A swap board has no margin: its table is the board.
public struct TableGeometry: Hashable, Sendable {
    /// Table units per cell side: finer than cells so a drag can move smoothly.
    public static let unitsPerCell = 4

    public let rows: Int
    public let cols: Int
    /// Height of the table margin above and below the board, in cells.
    public let marginRows: Int
    /// Width of the table margin left and right of the board, in cells.
    public let marginColumns: Int

    public init(rows: Int, cols: Int, marginRows: Int, marginColumns: Int) {
        self.rows = rows
        self.cols = cols
        self.marginRows = marginRows
        self.marginColumns = marginColumns
    }

    /// A table with the same margin on every side.
    public init(rows: Int, cols: Int, marginCells: Int) {
        self.init(rows: rows, cols: cols, marginRows: marginCells, marginColumns: marginCells)
    }

    /// The table a jigsaw puzzle gets: the smallest margins whose slots hold
    /// every piece apart (see `TableSlots`).
    public static func jigsaw(rows: Int, cols: Int) -> TableGeometry {
        let m = TableSlots.margins(rows: rows, cols: cols)
        return TableGeometry(rows: rows, cols: cols, marginRows: m.rows, marginColumns: m.columns)
    }

    public var unit: Int { Self.unitsPerCell }
    public var boardOrigin: Point { Point(x: marginColumns * unit, y: marginRows * unit) }
    /// Table size in units.
    public var width: Int { (cols + 2 * marginColumns) * unit }
    public var height: Int { (rows + 2 * marginRows) * unit }
    public var cellCount: Int { rows * cols }

    /// Whether a piece whose top-left corner is at `p` lies wholly on the table.
    public func contains(_ p: Point) -> Bool {
        p.x >= 0 && p.y >= 0 && p.x <= width - unit && p.y <= height - unit
    }

    public func isOnBoard(_ c: Cell) -> Bool {
        c.row >= 0 && c.col >= 0 && c.row < rows && c.col < cols
    }

    /// The grid cell (possibly off the board) that holds the centre of a piece
    /// whose top-left corner is at `p`.
    public func gridCell(under p: Point) -> Cell {
        let o = boardOrigin
        let cx = p.x + unit / 2 - o.x
        let cy = p.y + unit / 2 - o.y
        return Cell(row: floorDiv(cy, unit), col: floorDiv(cx, unit))
    }

    /// The board cell under `p`, or nil when the piece's centre is off the board.
    public func cell(under p: Point) -> Cell? {
        let c = gridCell(under: p)
        return isOnBoard(c) ? c : nil
    }

    /// The table point of a cell's top-left corner.
    public func origin(of c: Cell) -> Point {
        let o = boardOrigin
        return Point(x: o.x + c.col * unit, y: o.y + c.row * unit)
    }

    public func index(of c: Cell) -> Int { c.row * cols + c.col }
    public func cell(at index: Int) -> Cell { Cell(row: index / cols, col: index % cols) }

    /// Whether `p` lies on the board area of the table (the centre rule above).
    func isOverBoard(_ p: Point) -> Bool { cell(under: p) != nil }

    private func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
