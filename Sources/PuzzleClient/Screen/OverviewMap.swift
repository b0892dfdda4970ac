import PuzzleCore

/// The overview map: while zoomed in so that the table does not fit the view,
/// a small inset in a corner of the view (the bottom right, else another
/// corner clear of the player's held piece) shows the whole table (the board,
/// placed pieces in their colours, loose pieces as light dots, held ones in
/// their holder's colour, a `/find` mark) and a white rectangle where the view lies.
enum OverviewMap {
    /// The inset's screen rectangle, or nil when the table fits the view (or
    /// the view is too small for a map, or no corner is clear of the held
    /// piece: the piece in hand is never covered). A sixth of the view's
    /// width, a quarter of its height at most: a look at where one is, not a
    /// second table. Corners in turn: bottom right, bottom left, top left, top right.
    static func box(layout: SceneLayout, table g: TableGeometry, avoiding: ScreenBox? = nil) -> ScreenBox? {
        let units = layout.viewUnits
        guard units.x < g.width || units.y < g.height else { return nil }
        let maxWidth = max(10, layout.viewColumns / 6), maxHeight = max(4, layout.viewRows / 4)
        guard maxWidth + 4 < layout.viewColumns, maxHeight + 2 < layout.viewRows else { return nil }
        // A one-pixel border inside the box; pixels are square.
        var pw = min(maxWidth - 2, (2 * maxHeight - 2) * g.width / g.height)
        var ph = pw * g.height / g.width
        if ph > 2 * maxHeight - 2 {
            ph = 2 * maxHeight - 2
            pw = ph * g.width / g.height
        }
        guard pw >= 4, ph >= 2 else { return nil }
        let width = pw + 2, height = (ph + 2 + 1) / 2
        let top = layout.viewTop + layout.viewRows - height, right = layout.viewColumns - width
        let corners = [ScreenBox(top: top, left: right, height: height, width: width), ScreenBox(top: top, left: 0, height: height, width: width),
                       ScreenBox(top: layout.viewTop, left: 0, height: height, width: width),
                       ScreenBox(top: layout.viewTop, left: right, height: height, width: width)]
        guard let a = avoiding else { return corners[0] }
        return corners.first { !$0.intersects(a) }
    }

    /// The table point a screen cell of the map shows (its middle), or nil outside the map.
    static func tablePoint(row: Int, column: Int, layout: SceneLayout, table g: TableGeometry, avoiding: ScreenBox?) -> Point? {
        guard let b = box(layout: layout, table: g, avoiding: avoiding),
              row >= b.top, row < b.top + b.height, column >= b.left, column < b.left + b.width else { return nil }
        let pw = b.width - 2, ph = 2 * b.height - 2
        // Pixel column (column - left - 1) and the pixel row pair of the screen row, inside the border.
        let i = min(pw - 1, max(0, column - b.left - 1)), j = min(ph - 1, max(0, 2 * (row - b.top)))
        return Point(x: (2 * i + 1) * g.width / (2 * pw), y: (2 * j + 2) * g.height / (2 * ph))
    }

    static let viewColor: UInt32 = 0xFFFFFF
    static let borderColor: UInt32 = 0x000000
    static let looseColor: UInt32 = 0x7A7A7A

    static func draw(_ st: RoomState, picture: Picture?, view: Point, layout: SceneLayout, lens: TableLens, plain: Bool,
                     avoiding: ScreenBox?, into frame: inout Frame) {
        let g = st.geometry
        guard let b = box(layout: layout, table: g, avoiding: avoiding) else { return }
        let pw = b.width - 2, ph = 2 * b.height - 2
        var canvas = PixelCanvas(width: b.width, rows: b.height)
        canvas.fill(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height, borderColor, owner: PixelCanvas.background)
        // Map pixel (i, j) shows the table point under its middle; a table point its pixel.
        func mapX(_ u: Int) -> Int { 1 + min(pw - 1, max(0, u * pw / g.width)) }
        func mapY(_ v: Int) -> Int { 1 + min(ph - 1, max(0, v * ph / g.height)) }
        let o = g.boardOrigin
        for j in 0..<ph {
            for i in 0..<pw {
                let u = (2 * i + 1) * g.width / (2 * pw), v = (2 * j + 1) * g.height / (2 * ph)
                var color = TableCanvas.tableBackground
                let cu = u - o.x, cv = v - o.y
                if cu >= 0, cv >= 0, cu < g.cols * g.unit, cv < g.rows * g.unit {
                    let cell = Cell(row: cv / g.unit, col: cu / g.unit)
                    if let piece = st.occupant(of: cell), st.locks[piece] == nil {
                        color = TableCanvas.sample(picture, st: st, piece: piece, i: 0, j: 0, w: 1, h: 1, rotation: st.pieces[piece].rotation)
                        if lens.filter != .all && lens.dimsPlaced(piece, in: st) { color = TableCanvas.dim(color) }
                    } else {
                        color = TableCanvas.boardChecker
                    }
                }
                // Plain mode shades picture pixels only: the map is shaded whole, by brightness.
                canvas.set(1 + i, 1 + j, color | (plain ? PixelCanvas.pictureBit : 0), owner: PixelCanvas.background)
            }
        }
        let half = g.unit / 2
        for piece in 0..<st.pieceCount where st.locks[piece] == nil {
            guard case .table(let p) = st.pieces[piece].location, lens.filter == .all || lens.showsLoose(piece, in: st) else { continue }
            canvas.set(mapX(p.x + half), mapY(p.y + half), looseColor | (plain ? PixelCanvas.pictureBit : 0), owner: PixelCanvas.background)
        }
        for (_, lock) in st.locks {
            canvas.set(mapX(lock.point.x + half), mapY(lock.point.y + half), PixelCanvas.pack(PlayerPalette.color(of: lock.holder, in: st.colorSlots)), owner: PixelCanvas.mark)
        }
        if let found = lens.marksFound(in: st) {
            let p = st.position(of: found)
            canvas.set(mapX(p.x + half), mapY(p.y + half), PixelCanvas.pack(TableCanvas.foundColor), owner: PixelCanvas.mark)
        }
        // Where the view lies, clipped to the map.
        let units = layout.viewUnits
        let x0 = mapX(view.x), y0 = mapY(view.y), x1 = mapX(view.x + units.x - 1) + 1, y1 = mapY(view.y + units.y - 1) + 1
        canvas.frame(x0: x0, y0: y0, x1: x1, y1: y1, viewColor, owner: PixelCanvas.mark)
        if plain {
            // No colours: the view's rectangle as `*` on the screen cells it crosses.
            for row in TableZoom.floorDiv(y0, 2)...TableZoom.floorDiv(y1 - 1, 2) {
                for column in x0..<x1 where row == TableZoom.floorDiv(y0, 2) || row == TableZoom.floorDiv(y1 - 1, 2) || column == x0 || column == x1 - 1 {
                    canvas.put(PixelCanvas.Text(character: "*", foreground: nil, background: nil), row: row, column: column)
                }
            }
        }
        canvas.compose(into: &frame, top: b.top, left: b.left, plain: plain)
    }
}
