/// Where loose jigsaw pieces lie at the start of a puzzle: a grid of slots on
/// the table around the board, every slot one unit clear of its neighbours and
/// of the board, so no piece starts under another or over the board.
///
/// Slots are the points `(5i, 5j)` (a piece is 4 units, plus a 1-unit gap)
/// whose piece lies wholly on the table and at least one unit clear of the
/// board: `x <= bx - 5` or `x >= bx + 4*cols + 1`, or the same vertically, with
/// `(bx, by)` the board's corner. The table's margins are the smallest that
/// give a slot to every piece with the table about 7:4 wide, the shape of a
/// terminal's table view in square half-block pixels (see `margins`).
public enum TableSlots {
    /// Slot pitch in table units: a piece and a one-unit gap.
    public static let pitch = TableGeometry.unitsPerCell + 1

    /// The margins (in cells) of a jigsaw table of `rows` × `cols`: for each
    /// rows margin `m = 1, 2, ...` the smallest columns margin `c >= m` whose
    /// table has a slot for every piece; of these, the pair whose table (`w` × `h`
    /// cells) has the smallest `max(4w, 7h)`, the first on a tie.
    public static func margins(rows: Int, cols: Int) -> (rows: Int, columns: Int) {
        var best: (score: Int, rows: Int, columns: Int)?
        var m = 1
        while true {
            let height = rows + 2 * m
            // Taller tables only score worse from here on.
            if let best, 7 * height > best.score { return (best.rows, best.columns) }
            var c = m
            while count(in: TableGeometry(rows: rows, cols: cols, marginRows: m, marginColumns: c)) < rows * cols { c += 1 }
            let score = max(4 * (cols + 2 * c), 7 * height)
            if score < best?.score ?? Int.max { best = (score, m, c) }
            m += 1
        }
    }

    /// Slot positions along one axis: how many fit on a table `size` units long,
    /// and how many of those come within a unit of a board from `start` to `end`.
    private static func axis(size: Int, boardStart: Int, boardEnd: Int) -> (all: Int, blocked: Int) {
        let unit = TableGeometry.unitsPerCell
        let all = (size - unit) / pitch + 1
        // Blocked: boardStart - 5 < 5i < boardEnd + 1.
        let first = floorDiv(boardStart - pitch, pitch) + 1
        let last = ceilDiv(boardEnd + 1, pitch) - 1
        let lo = max(0, first), hi = min(all - 1, last)
        return (all, max(0, hi - lo + 1))
    }

    /// The number of slots on a table.
    public static func count(in g: TableGeometry) -> Int {
        let o = g.boardOrigin
        let x = axis(size: g.width, boardStart: o.x, boardEnd: o.x + g.cols * g.unit)
        let y = axis(size: g.height, boardStart: o.y, boardEnd: o.y + g.rows * g.unit)
        return x.all * y.all - x.blocked * y.blocked
    }

    /// Every slot of a table, nearest the board first (by the larger of the
    /// horizontal and vertical gaps between the slot's piece and the board, in
    /// units), ties by row then column: pieces dealt in this order lie in rings
    /// around the board.
    public static func slots(in g: TableGeometry) -> [Point] {
        let o = g.boardOrigin
        let bx1 = o.x + g.cols * g.unit, by1 = o.y + g.rows * g.unit
        let columns = (g.width - g.unit) / pitch + 1
        let rows = (g.height - g.unit) / pitch + 1
        var found: [(distance: Int, point: Point)] = []
        found.reserveCapacity(columns * rows)
        for j in 0..<rows {
            let y = j * pitch
            let dy = y + g.unit <= o.y ? o.y - (y + g.unit) : (y >= by1 ? y - by1 : -1)
            for i in 0..<columns {
                let x = i * pitch
                let dx = x + g.unit <= o.x ? o.x - (x + g.unit) : (x >= bx1 ? x - bx1 : -1)
                // Clear of the board by at least one unit on one axis.
                guard dx >= 1 || dy >= 1 else { continue }
                found.append((max(dx, dy), Point(x: x, y: y)))
            }
        }
        // A stable order: distance, then row, then column (the scan order).
        return found.enumerated().sorted { a, b in
            a.element.distance != b.element.distance ? a.element.distance < b.element.distance : a.offset < b.offset
        }.map(\.element.point)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    private static func ceilDiv(_ a: Int, _ b: Int) -> Int { -floorDiv(-a, b) }
}
