import PuzzleCore

/// The box lid: the whole picture in a window, as a player keeps the box's
/// lid propped up beside a jigsaw. Small (step 1) it sits beside the table,
/// over the player panel, so that it hides nothing of the board; larger, at
/// the table view's top right. Its size is the player's step (1 small, up to
/// `TableLens.lidSteps`, the whole view), the picture keeping the board's
/// shape (square cells).
enum LidWindow {
    /// The window's screen rectangle, border included, or nil when it would be
    /// too small to show anything: over the panel (step 1, where there is a
    /// panel), else at the view's top right, or its top left when the
    /// player's held piece (`avoiding`: its screen cells) would be under it.
    static func box(layout: SceneLayout, step: Int, rows: Int, cols: Int, avoiding: ScreenBox? = nil) -> ScreenBox? {
        let steps = TableLens.lidSteps
        let s = min(max(1, step), steps)
        guard rows > 0, cols > 0 else { return nil }
        // The window's width and height (border included) within a space, the picture keeping the board's shape.
        func sized(_ maxWidth: Int, _ maxHeight: Int) -> (width: Int, height: Int)? {
            guard maxWidth >= 8, maxHeight >= 4 else { return nil }
            // Inner pixels: a column is one pixel, a row two.
            var pw = min(maxWidth - 2, 2 * (maxHeight - 2) * cols / rows)
            var ph = pw * rows / cols
            if ph > 2 * (maxHeight - 2) {
                ph = 2 * (maxHeight - 2)
                pw = ph * cols / rows
            }
            guard pw >= 4, ph >= 2 else { return nil }
            return (pw + 2, (ph + 1) / 2 + 2)
        }
        // Beside the table: the panel's columns and its separator, its rows.
        let beside = layout.hasPanel ? sized(SceneLayout.panelWidth + 1, layout.viewRows) : nil
        if s == 1, let b = beside { return ScreenBox(top: layout.viewTop, left: layout.viewColumns, height: b.height, width: b.width) }
        // Over the view: a share of it by step, and never smaller than the
        // step before (on a small terminal the panel's window can be the
        // larger: "bigger" then takes the whole view).
        var size = sized(layout.viewColumns * s / steps, layout.viewRows * s / steps)
        if let b = beside, size.map({ $0.width <= b.width }) ?? true { size = sized(layout.viewColumns, layout.viewRows) }
        guard let size else { return nil }
        let right = ScreenBox(top: layout.viewTop, left: layout.viewColumns - size.width, height: size.height, width: size.width)
        if let a = avoiding, right.intersects(a) {
            let left = ScreenBox(top: layout.viewTop, left: 0, height: size.height, width: size.width)
            if !left.intersects(a) { return left }
        }
        return right
    }

    /// Whether a screen cell lies in the lid window.
    static func contains(row: Int, column: Int, layout: SceneLayout, step: Int, rows: Int, cols: Int, avoiding: ScreenBox?) -> Bool {
        box(layout: layout, step: step, rows: rows, cols: cols, avoiding: avoiding)?.contains(row: row, column: column) ?? false
    }

    static let borderStyle = Frame.Style(foreground: TerminalColor(hex: 0xE0E0E0), background: TerminalColor(hex: 0x000000), bold: true)

    /// Draws the lid over the table view: a border titled with how to close
    /// and size it, the picture in half-block pixels (plain mode: shading).
    static func draw(_ picture: Picture, st: RoomState, step: Int, layout: SceneLayout, plain: Bool,
                     avoiding: ScreenBox?, into frame: inout Frame) {
        guard let b = box(layout: layout, step: step, rows: st.spec.rows, cols: st.spec.cols, avoiding: avoiding) else { return }
        let style = plain ? Frame.Style.default : borderStyle
        for r in b.top..<(b.top + b.height) {
            for c in b.left..<(b.left + b.width) {
                let edge = r == b.top || r == b.top + b.height - 1, side = c == b.left || c == b.left + b.width - 1
                guard edge || side else { continue }
                frame[r, c] = Frame.Cell(edge && side ? "+" : edge ? "-" : "|", style: style)
            }
        }
        for title in [" lid ^P  wheel: size ", " lid ^P ", " lid "] where title.count <= b.width - 2 {
            _ = frame.put(title, row: b.top, column: b.left + 1, style: style)
            break
        }
        let pw = b.width - 2, ph = 2 * (b.height - 2)
        var canvas = PixelCanvas(width: pw, rows: b.height - 2)
        // The picture keeps the board's shape: rows of pixels beyond it (an odd count) stay dark.
        let shown = pw * st.spec.rows / max(1, st.spec.cols)
        for y in 0..<ph {
            for x in 0..<pw {
                guard y < max(1, shown) else {
                    canvas.set(x, y, 0x000000, owner: PixelCanvas.background)
                    continue
                }
                let sx = min(picture.width - 1, (2 * x + 1) * picture.width / (2 * pw))
                let sy = min(picture.height - 1, (2 * y + 1) * picture.height / (2 * max(1, shown)))
                canvas.set(x, y, TableCanvas.pack(picture[x: sx, y: sy]) | PixelCanvas.pictureBit, owner: PixelCanvas.background)
            }
        }
        canvas.compose(into: &frame, top: b.top + 1, left: b.left + 1, plain: plain)
    }

    /// The screen cells the piece `me` holds (the first, by number) takes
    /// with its ring and tabs (a part: all of it, when smaller than half the
    /// view), where it is in the view: what the lid and the map keep clear of.
    static func heldBox(_ st: RoomState, me: PlayerID?, layout: SceneLayout, view: Point, shift: Point = Point(x: 0, y: 0)) -> ScreenBox? {
        guard let me, let piece = st.locks.filter({ $0.value.holder == me }).keys.min(), let lock = st.locks[piece] else { return nil }
        let zoom = layout.zoom, u = st.geometry.unit
        // A part: the box of all its pieces, unless it takes half the view
        // either way (then no corner would be clear of it and the map would
        // go): the piece it is held by.
        var e = st.partExtent(of: piece, rotation: lock.rotation)
        let units = layout.viewUnits
        if 2 * (e.maxDx - e.minDx + 1) * u > units.x || 2 * (e.maxDy - e.minDy + 1) * u > units.y { e = (0, 0, 0, 0) }
        let ux0 = lock.point.x + e.minDx * u, uy0 = lock.point.y + e.minDy * u
        let ux1 = lock.point.x + (e.maxDx + 1) * u, uy1 = lock.point.y + (e.maxDy + 1) * u
        // Pixels: the piece, one more each way for its ring and tabs.
        let x0 = zoom.pixel(ux0 - view.x) - shift.x - 1, y0 = zoom.pixel(uy0 - view.y) - shift.y - 1
        let x1 = max(x0 + 2, zoom.pixel(ux1 - view.x) - shift.x) + 1
        let y1 = max(y0 + 2, zoom.pixel(uy1 - view.y) - shift.y) + 1
        let top = layout.viewTop + TableZoom.floorDiv(y0, 2), bottom = layout.viewTop + TableZoom.floorDiv(y1 - 1, 2)
        let box = ScreenBox(top: top, left: x0, height: bottom - top + 1, width: x1 - x0)
        guard box.intersects(ScreenBox(top: layout.viewTop, left: 0, height: layout.viewRows, width: layout.viewColumns)) else { return nil }
        return box
    }
}
