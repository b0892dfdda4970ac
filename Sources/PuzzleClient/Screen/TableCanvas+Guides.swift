import PuzzleCore

/// What helps a player find their way on a big board, over the table view:
/// the piece `/find` marked, and rulers numbering the board's rows and columns.
extension TableCanvas {
    /// The `/find` mark's colour: a yellow no player has.
    static let foundColor = TerminalColor(hex: 0xFFE600)

    /// The `/find` mark: a ring two pixels thick just outside the piece
    /// (outside its holder's ring when it is held), or an arrow on the view's
    /// edge towards it when it is out of sight.
    mutating func drawFound(_ st: RoomState) {
        guard let piece = lens.marksFound(in: st) else { return }
        let r = rect(st.position(of: piece), unit: st.geometry.unit)
        guard isVisible(r, margin: 3) else {
            drawArrow(towards: r, color: Self.foundColor, marker: "?")
            return
        }
        // Outside the holder's ring when it is held (alone or in a part).
        let gap = st.grip(of: piece) == nil ? 1 : 2
        let color = PixelCanvas.pack(Self.foundColor)
        for k in 0..<2 {
            let d = gap + k
            canvas.frame(r.outset(by: d), color, owner: PixelCanvas.mark)
        }
        if plain {
            let top = TableZoom.floorDiv(r.top - gap - 1, 2), bottom = TableZoom.floorDiv(r.bottom + gap, 2)
            for row in [top, bottom] {
                for column in (r.left - gap - 1)...(r.right + gap) { canvas.put(PixelCanvas.Text(character: "?", foreground: nil, background: nil), row: row, column: column) }
            }
        }
    }

    /// Whether pieces are large enough for rulers: two screen rows and four
    /// columns a cell, so that each row and column number sits by its cell.
    var showsRulers: Bool { zoom.piecePixels >= 4 }

    /// Dark digits on a light band: they read on any picture and apart from
    /// the pieces' numbers (white on the piece's own colour, darkened).
    static let rulerStyle = (foreground: TerminalColor(hex: 0x101010), background: TerminalColor(hex: 0xD8D8D8))

    /// Column numbers above the board and row numbers left of it, each by its
    /// cell; where the board's edge is out of sight they stay on the view's
    /// edge (so a player zoomed into the middle of a 30x30 still reads where
    /// they are). Never over a held piece, nor against a piece's number.
    mutating func drawRulers(_ st: RoomState) {
        guard showsRulers else { return }
        let g = st.geometry, o = g.boardOrigin
        // Held pieces (every piece of a held part) and their rings stay whole.
        if heldPieces.count != st.pieceCount { heldPieces = Self.heldFlags(st) }
        func held(_ owner: Int32) -> Bool { owner == PixelCanvas.ring || isHeld(owner) }
        func put(_ label: String, row: Int, column: Int) {
            // Not against a piece's number: "30" and "5" would read "305".
            guard row >= 0, row < canvas.rows,
                  !((column - 1)...(column + label.count)).contains(where: { x in
                      x >= 0 && x < canvas.width && canvas.text[row * canvas.width + x] != nil }) else { return }
            for (i, c) in label.unicodeScalars.enumerated() {
                let x = column + i
                guard x >= 0, x < canvas.width, row >= 0, row < canvas.rows,
                      !held(canvas.owner(x, 2 * row)), !held(canvas.owner(x, 2 * row + 1)) else { continue }
                canvas.put(PixelCanvas.Text(character: c, foreground: plain ? nil : Self.rulerStyle.foreground,
                                            background: plain ? nil : Self.rulerStyle.background, bold: false), row: row, column: x)
            }
        }
        // Columns: on the screen row above the board's top (pixel rows are
        // halves of screen rows: the row ending before the board's first pixel).
        let boardTop = py(o.y), boardLeft = px(o.x)
        let boardBottom = py(o.y + g.rows * g.unit), boardRight = px(o.x + g.cols * g.unit)
        guard boardBottom > 0, boardRight > 0, boardTop < canvas.height, boardLeft < canvas.width else { return }
        let columnRow = max(0, TableZoom.floorDiv(boardTop, 2) - 1)
        for col in 0..<g.cols {
            let x0 = px(o.x + col * g.unit), x1 = px(o.x + (col + 1) * g.unit)
            let label = String(col)
            guard x1 > 0, x0 < canvas.width, label.count < x1 - x0 else { continue }
            put(label, row: columnRow, column: x0 + (x1 - x0 - label.count) / 2)
        }
        let longest = String(g.rows - 1).count
        let rowColumn = max(0, boardLeft - longest - 1)
        for row in 0..<g.rows {
            let y0 = py(o.y + row * g.unit), y1 = py(o.y + (row + 1) * g.unit)
            let screenRow = TableZoom.floorDiv((y0 + y1) / 2, 2)
            guard y1 > 0, y0 < canvas.height, screenRow != columnRow || boardTop > 1 else { continue }
            let label = String(row)
            put(String(repeating: " ", count: longest - label.count) + label, row: screenRow, column: rowColumn)
        }
    }
}
