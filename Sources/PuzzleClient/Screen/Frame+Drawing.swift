/// Drawing helpers; everything is clipped to the frame.
extension Frame {
    /// Writes `string` from `row`, `column` rightwards, each character taking its display width
    /// (`DisplayWidth`: wide ones two columns, zero-width ones none), clipped to the frame (a
    /// negative `column` skips the leading columns). A wide character cut by either edge is
    /// shown as a space.
    ///
    /// - Returns: the column just after the last character of `string`, clipped or not, so
    ///   consecutive calls can continue a line.
    @discardableResult
    public mutating func put(_ string: String, row: Int, column: Int, style: Style = .default) -> Int {
        var current = column
        for index in string.indices {
            let character = string[index]
            let columns = DisplayWidth.of(character)
            if columns == 0 { continue }
            if current >= width { return current + DisplayWidth.of(string[index...]) }
            if current + columns > 0 {
                // Straddling the left edge: the half that is in the frame is blank.
                self[row, max(0, current)] = current < 0 ? Cell(" ", style: style) : Cell(character, style: style)
            }
            current += columns
        }
        return current
    }

    /// Sets every cell of the rectangle to `cell`, clipped to the frame.
    public mutating func fill(row: Int, column: Int, height rectHeight: Int, width rectWidth: Int, with cell: Cell) {
        let top = max(0, row), bottom = min(height, row + max(0, rectHeight))
        let left = max(0, column), right = min(width, column + max(0, rectWidth))
        // (A rectangle wholly left of or above the frame has its end before its clipped start.)
        guard top < bottom, left < right else { return }
        let rows = top..<bottom, columns = left..<right
        var cell = cell
        if cell.isContinuation || DisplayWidth.of(cell.character) != 1 { cell = Cell(" ", style: cell.style) }
        for r in rows {
            unlinkEnds(row: r, columns: columns)
            for c in columns {
                cells[r * width + c] = cell
            }
        }
    }

    /// Sets every cell to `cell`.
    public mutating func clear(with cell: Cell = .blank) {
        fill(row: 0, column: 0, height: height, width: width, with: cell)
    }
}
