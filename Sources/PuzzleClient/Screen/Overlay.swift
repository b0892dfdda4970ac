/// A window over the table (help, players, rooms, the board as text) that a key closes.
public struct Overlay: Hashable, Sendable {
    public var title: String
    public var lines: [String]
    /// Still taking the lines of a server listing (until its reply).
    public var collecting: Bool
    /// Lines scrolled past at the top.
    public var scroll = 0

    public init(title: String, lines: [String] = [], collecting: Bool = false) {
        self.title = title
        self.lines = lines
        self.collecting = collecting
    }
}

extension SceneRenderer {
    /// Draws the overlay centred over the table view, bordered, clipped to fit.
    static func drawOverlay(_ overlay: Overlay, in frame: inout Frame, layout: SceneLayout) {
        let footer = overlay.collecting ? "loading..." : "Esc closes  PgUp/PgDn scroll"
        let widest = max(overlay.title.count + 4, footer.count + 4, (overlay.lines.map(\.count).max() ?? 0) + 4)
        let width = min(max(30, widest), max(10, frame.width - 2))
        let inner = max(1, min(overlay.lines.count, layout.viewRows - 3))
        let height = inner + 3
        let top = layout.viewTop + max(0, (layout.viewRows - height) / 2)
        let left = max(0, (frame.width - width) / 2)
        let box = Frame.Style(bold: false, inverse: false)
        frame.fill(row: top, column: left, height: height, width: width, with: Frame.Cell(" ", style: box))
        let rule = "+" + String(repeating: "-", count: max(0, width - 2)) + "+"
        frame.put(rule, row: top, column: left)
        frame.put(rule, row: top + height - 1, column: left)
        frame.put(" \(overlay.title) ", row: top, column: left + 2, style: Frame.Style(bold: true))
        for r in (top + 1)..<(top + height - 1) {
            frame[r, left] = Frame.Cell("|")
            frame[r, left + width - 1] = Frame.Cell("|")
        }
        let first = min(overlay.scroll, max(0, overlay.lines.count - inner))
        for (i, line) in overlay.lines.dropFirst(first).prefix(inner).enumerated() {
            frame.put(String(line.prefix(width - 4)), row: top + 1 + i, column: left + 2)
        }
        frame.put(String(footer.prefix(width - 4)), row: top + height - 2, column: left + 2, style: Frame.Style(inverse: true))
    }
}
