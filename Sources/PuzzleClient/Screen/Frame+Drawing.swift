/// Drawing helpers; everything is clipped to the frame.
extension Frame {
    /// Writes `string` from `row`, `column` rightwards, one character per column, clipped to the
    /// frame (a negative `column` skips the leading characters).
    ///
    /// - Returns: the column just after the last character of `string`, clipped or not, so
    ///   consecutive calls can continue a line.
    @discardableResult
    public mutating func put(_ string: String, row: Int, column: Int, style: Style = .default) -> Int {
        var current = column
        for character in string {
            if current >= width { return column + string.count }
            self[row, current] = Cell(character, style: style)
            current += 1
        }
        return current
    }

    /// Sets every cell of the rectangle to `cell`, clipped to the frame.
    public mutating func fill(row: Int, column: Int, height rectHeight: Int, width rectWidth: Int, with cell: Cell) {
        let rows = max(0, row)..<min(height, row + max(0, rectHeight))
        let columns = max(0, column)..<min(width, column + max(0, rectWidth))
        guard !rows.isEmpty, !columns.isEmpty else { return }
        for r in rows {
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
