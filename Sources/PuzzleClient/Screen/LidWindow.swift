import PuzzleCore

/// The box lid: the whole picture in a window at the table view's top right,
/// as a player keeps the box's lid propped up beside a jigsaw. Its size is
/// the player's step (1 small, up to `TableLens.lidSteps`, the whole view),
/// the picture keeping the board's shape (square cells).
enum LidWindow {
    /// The window's screen rectangle, border included, or nil when it would be
    /// too small to show anything: at the view's top right, or its top left
    /// when the player's held piece (`avoiding`, a screen cell) would be under it.
    static func box(layout: SceneLayout, step: Int, rows: Int, cols: Int,
                    avoiding: (row: Int, column: Int)? = nil) -> (top: Int, left: Int, height: Int, width: Int)? {
        let steps = TableLens.lidSteps
        let s = min(max(1, step), steps)
        let maxWidth = layout.viewColumns * s / steps, maxHeight = layout.viewRows * s / steps
        guard maxWidth >= 8, maxHeight >= 4, rows > 0, cols > 0 else { return nil }
        // Inner pixels: a column is one pixel, a row two.
        var pw = min(maxWidth - 2, 2 * (maxHeight - 2) * cols / rows)
        var ph = pw * rows / cols
        if ph > 2 * (maxHeight - 2) {
            ph = 2 * (maxHeight - 2)
            pw = ph * cols / rows
        }
        guard pw >= 4, ph >= 2 else { return nil }
        let width = pw + 2, height = (ph + 1) / 2 + 2
        let right = layout.viewColumns - width
        if let a = avoiding, a.row >= layout.viewTop - 1, a.row <= layout.viewTop + height, a.column >= right - 1 {
            return (layout.viewTop, 0, height, width)
        }
        return (layout.viewTop, right, height, width)
    }

    /// Whether a screen cell lies in the lid window.
    static func contains(row: Int, column: Int, layout: SceneLayout, step: Int, rows: Int, cols: Int, avoiding: (row: Int, column: Int)?) -> Bool {
        guard let b = box(layout: layout, step: step, rows: rows, cols: cols, avoiding: avoiding) else { return false }
        return row >= b.top && row < b.top + b.height && column >= b.left && column < b.left + b.width
    }

    static let borderStyle = Frame.Style(foreground: TerminalColor(hex: 0xE0E0E0), background: TerminalColor(hex: 0x000000), bold: true)

    /// Draws the lid over the table view: a border titled with how to close
    /// and size it, the picture in half-block pixels (plain mode: shading).
    static func draw(_ picture: Picture, st: RoomState, step: Int, layout: SceneLayout, plain: Bool,
                     avoiding: (row: Int, column: Int)?, into frame: inout Frame) {
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

    /// The screen cell of the middle of the piece `me` holds (the first, by
    /// number), if it is in the view: what the lid keeps clear of.
    static func heldCell(_ st: RoomState, me: PlayerID?, layout: SceneLayout, view: Point) -> (row: Int, column: Int)? {
        guard let me, let piece = st.locks.filter({ $0.value.holder == me }).keys.min(), let lock = st.locks[piece] else { return nil }
        let half = st.geometry.unit / 2
        return layout.screenCell(of: Point(x: lock.point.x + half, y: lock.point.y + half), view: view)
    }
}
