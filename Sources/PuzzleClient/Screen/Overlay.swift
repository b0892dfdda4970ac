/// A window over the table (help, players, rooms, the board as text) that a key closes.
public struct Overlay: Hashable, Sendable {
    public var title: String
    public var lines: [String]
    /// Still taking the lines of a server listing (until its reply).
    public var collecting: Bool
    /// Lines scrolled past at the top.
    public var scroll = 0
    /// Whether joining a room closes it (the start-up room picker: its choice is made).
    public var closesOnJoin = false

    public init(title: String, lines: [String] = [], collecting: Bool = false) {
        self.title = title
        self.lines = lines
        self.collecting = collecting
    }

    static let footer = "Esc closes  PgUp/PgDn scroll"

    /// The window's width in `layout`: its widest line, within the screen.
    func width(in layout: SceneLayout) -> Int {
        let widest = max(DisplayWidth.of(title) + 4, Self.footer.count + 4, (lines.map { DisplayWidth.of($0) }.max() ?? 0) + 4)
        return min(max(30, widest), max(10, layout.width - 2))
    }

    /// The lines as shown: wrapped to the window, continuations under their
    /// line's second column.
    func wrappedLines(in layout: SceneLayout) -> [String] {
        let room = max(1, width(in: layout) - 4)
        return lines.flatMap { MessageWrap.wrap($0, width: room, indent: MessageWrap.hangingIndent(of: $0)) }
    }

    /// Lines shown at once in `layout` (inside the border, above the footer).
    func visibleLines(in layout: SceneLayout) -> Int {
        Self.shown(of: wrappedLines(in: layout).count, in: layout)
    }

    /// How many of `total` wrapped lines fit in the window at once.
    static func shown(of total: Int, in layout: SceneLayout) -> Int {
        max(1, min(total, layout.windowRows - 3))
    }

    /// Scrolls a page on (or back), never past the last page, so that paging
    /// back after paging too far moves at once.
    public mutating func page(back: Bool, in layout: SceneLayout) {
        let total = wrappedLines(in: layout).count
        let shown = Self.shown(of: total, in: layout)
        let step = max(1, shown - 1)
        let last = max(0, total - shown)
        scroll = min(last, max(0, min(scroll, last) + (back ? -step : step)))
    }
}

extension SceneRenderer {
    /// Draws the overlay centred between the status line and the prompt,
    /// bordered, clipped to fit.
    static func drawOverlay(_ overlay: Overlay, in frame: inout Frame, layout: SceneLayout) {
        let width = overlay.width(in: layout)
        let lines = overlay.wrappedLines(in: layout)
        let inner = Overlay.shown(of: lines.count, in: layout)
        // Paging keys are offered only when there is something to page to.
        let footer = overlay.collecting ? "loading..." : inner < lines.count ? Overlay.footer : "Esc closes"
        let height = inner + 3
        let top = layout.windowTop + max(0, (layout.windowRows - height) / 2)
        let left = max(0, (frame.width - width) / 2)
        let box = Frame.Style(bold: false, inverse: false)
        // The window's rows are cleared across the screen: bits of the panel
        // beside a narrower window read as stray letters.
        frame.fill(row: top, column: 0, height: height, width: frame.width, with: Frame.Cell(" ", style: box))
        let rule = "+" + String(repeating: "-", count: max(0, width - 2)) + "+"
        frame.put(rule, row: top, column: left)
        frame.put(rule, row: top + height - 1, column: left)
        frame.put(String(DisplayWidth.prefix(" \(overlay.title) ", columns: width - 4)), row: top, column: left + 2, style: Frame.Style(bold: true))
        for r in (top + 1)..<(top + height - 1) {
            frame[r, left] = Frame.Cell("|")
            frame[r, left + width - 1] = Frame.Cell("|")
        }
        let first = min(overlay.scroll, max(0, lines.count - inner))
        for (i, line) in lines.dropFirst(first).prefix(inner).enumerated() {
            frame.put(String(DisplayWidth.prefix(line, columns: width - 4)), row: top + 1 + i, column: left + 2)
        }
        frame.put(String(footer.prefix(width - 4)), row: top + height - 2, column: left + 2, style: Frame.Style(inverse: true))
    }
}
