import PuzzleCore

/// Everything one screenful shows: the input of `SceneRenderer.render`, a pure function.
public struct Scene: Sendable {
    public var width: Int
    public var height: Int
    public var colorMode: ColorMode
    public var room: String
    /// The mirrored room; nil before the first snapshot.
    public var state: RoomState?
    public var picture: Picture?
    public var myID: PlayerID?
    public var names: [PlayerID: String]
    /// Table point (units) shown at the top-left of the table view.
    public var view: Point
    /// How large the table is drawn.
    public var zoom: TableZoom
    /// Pixels (at this zoom) the view starts past `view`: where a unit spans
    /// several pixels, the wheel's zoom keeps the very pixel under the
    /// pointer by starting the view inside a unit. Zero or a few pixels.
    public var viewShift = Point(x: 0, y: 0)
    /// Whether piece numbers are drawn on the pieces.
    public var showNumbers: Bool
    /// The room clock (the mirror's), for elapsed time.
    public var now: Int64
    public var rttMillis: Int64?
    /// Why the connection is down and what happens next, if it is down.
    public var connectionNotice: String?
    /// When the link dropped, while it is down: the clock shown stops there.
    /// The server may count no play meanwhile (it may be down itself), so a
    /// clock that ran on could jump back at the rejoin; a jump forward then is
    /// play that did count (others played on).
    public var clockStoppedAt: Int64?
    /// Recent lines (chat, events, replies, errors), oldest first; the last few
    /// are shown, wrapped to the width.
    public var messages: [OutputLine]
    /// Wrapped lines scrolled back from the newest (0: the newest are shown).
    public var messageScroll: Int
    /// Whether `messages` is the chat-only view (the pane says so, and how to leave it).
    public var chatOnly = false
    public var solvedBanner: String?
    /// The solved puzzle's numbers under the banner: moves, who placed what.
    public var solvedStats: String?
    /// While a replay plays (the table shows the replayed board): the status
    /// line's words after the room (speed, move, clock, the last move and who
    /// made it), the keys the panel lists instead of the table's, and at its
    /// end the lines over the solved board.
    public var replayStatus: [String]?
    public var panelKeys: [String]?
    public var replayBanner: [String]?
    /// Whether the whole picture is shown over the board (hint).
    public var showHint: Bool
    /// Whether the hint is drawn: asked for, and there is a picture to show.
    var drawsHint: Bool { showHint && picture != nil }
    /// The command line being edited.
    public var editor: LineEditor
    /// A window over the table, if one is open.
    public var overlay: Overlay?
    /// Whether the player is in no room and has to pick one (the table area says how).
    public var choosingRoom = false
    /// The start-up room list is asked for and not here yet (a server just
    /// restarted answers ROOMS once every room it keeps is loaded).
    public var awaitingRoomList = false
    /// What this player chose to see: a piece filter, the lid, a found piece.
    public var lens: TableLens
    /// Which loose piece lies on which (`ClientSession.stack`).
    public var stack = TableStack()
    /// Whether the room offers the box lid (the picture at will, and faintly
    /// in the board's empty cells); else the picture shows only through the hint.
    public var lidAllowed: Bool
    /// This client watches the room (no grabbing), and who watches it.
    public var watching = false
    public var watchers: [String] = []
    /// Whether the lid window is drawn: open, offered, and a picture to show.
    var drawsLid: Bool { lidAllowed && lens.lidOpen && picture != nil && !drawsHint }

    public init(width: Int, height: Int, colorMode: ColorMode, room: String, state: RoomState?, picture: Picture?,
                myID: PlayerID?, names: [PlayerID: String], view: Point = Point(x: 0, y: 0), zoom: TableZoom = .standard,
                showNumbers: Bool = true, now: Int64 = 0,
                rttMillis: Int64? = nil, connectionNotice: String? = nil, clockStoppedAt: Int64? = nil, messages: [OutputLine] = [], messageScroll: Int = 0,
                solvedBanner: String? = nil, showHint: Bool = false, editor: LineEditor = LineEditor(), overlay: Overlay? = nil,
                lens: TableLens = TableLens(), lidAllowed: Bool = false) {
        self.overlay = overlay
        self.lens = lens
        self.lidAllowed = lidAllowed
        self.width = width
        self.height = height
        self.colorMode = colorMode
        self.room = room
        self.state = state
        self.picture = picture
        self.myID = myID
        self.names = names
        self.view = view
        self.zoom = zoom
        self.showNumbers = showNumbers
        self.now = now
        self.rttMillis = rttMillis
        self.connectionNotice = connectionNotice
        self.clockStoppedAt = clockStoppedAt
        self.messages = messages
        self.messageScroll = messageScroll
        self.solvedBanner = solvedBanner
        self.showHint = showHint
        self.editor = editor
    }
}

/// Where things go on the screen for a terminal size, and how table units map
/// to screen cells at a zoom.
public struct SceneLayout: Hashable, Sendable {
    public static let minimumWidth = 40
    public static let minimumHeight = 12
    static let panelWidth = 24
    /// Rows of the message area, its separator line included: a quarter of the
    /// terminal, and at least 5 lines of messages on an ordinary 24-row one.
    var messageRows: Int { height >= 24 ? max(6, height / 4) : max(3, height / 4) }
    /// Lines of messages shown at once.
    public var messageLines: Int { messageRows - 1 }

    public let width: Int
    public let height: Int
    public let zoom: TableZoom

    public init(width: Int, height: Int, zoom: TableZoom = .standard) {
        self.width = width
        self.height = height
        self.zoom = zoom
    }

    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }
    /// Whether the player panel fits to the right of the table.
    var hasPanel: Bool { width >= 64 }
    /// The table view: from row 1 (after the status line) to above the messages.
    var viewTop: Int { 1 }
    var viewRows: Int { max(0, height - 2 - messageRows) }
    var viewColumns: Int { max(0, width - (hasPanel ? Self.panelWidth + 1 : 0)) }
    /// A window (help, players, rooms) may take every row between the status
    /// line and the prompt: on a 40-row terminal the whole help fits.
    var windowTop: Int { 1 }
    var windowRows: Int { max(0, height - 2) }
    /// The table view in half-block pixels: a column is one pixel, a row two.
    public var viewPixels: (x: Int, y: Int) { (viewColumns, 2 * viewRows) }
    /// The table view's size in table units at this zoom.
    public var viewUnits: (x: Int, y: Int) { (zoom.units(inPixels: viewPixels.x), zoom.units(inPixels: viewPixels.y)) }

    /// The table point under the middle of a screen cell of the table view, or
    /// nil outside the view. Follows the zoom, so the mouse plays at every level.
    public func tablePoint(row: Int, column: Int, view: Point, shift: Point = Point(x: 0, y: 0)) -> Point? {
        guard row >= viewTop, row < viewTop + viewRows, column >= 0, column < viewColumns else { return nil }
        // Column c spans pixel c; row r spans pixels 2r and 2r + 1, whose middle is 2r + 1 (half pixels: 4r + 2).
        return Point(x: view.x + zoom.unit(atPixelCentre: 2 * (column + shift.x) + 1),
                     y: view.y + zoom.unit(atPixelCentre: 2 * (2 * (row - viewTop) + shift.y) + 2))
    }

    /// The part of the table a screen cell of the view shows, in fine units
    /// (`TableZoom.finePerUnit` a unit) on each axis: a column is one pixel
    /// wide, a row two pixels high.
    public func fineSpan(row: Int, column: Int, view: Point, shift: Point = Point(x: 0, y: 0)) -> (x: Range<Int>, y: Range<Int>) {
        let q = zoom.finePerPixel, f = TableZoom.finePerUnit
        let x0 = f * view.x + (shift.x + column) * q, y0 = f * view.y + (shift.y + 2 * (row - viewTop)) * q
        return (x0..<(x0 + q), y0..<(y0 + 2 * q))
    }

    /// The same layout at another zoom.
    public func zoomed(_ zoom: TableZoom) -> SceneLayout { SceneLayout(width: width, height: height, zoom: zoom) }

    /// The largest zoom that shows the whole table, and the view that centres it.
    public func fit(table: TableGeometry) -> (zoom: TableZoom, view: Point) {
        let pixels = viewPixels
        let zoom = TableZoom.levels.first { z in
            z.pixel(table.width) <= pixels.x && z.pixel(table.height) <= pixels.y
        } ?? TableZoom.levels[TableZoom.levels.count - 1]
        let fitted = zoomed(zoom)
        // Centred where the table is smaller than the view, from its edge where it is larger.
        func axis(_ shown: Int, _ size: Int) -> Int { shown >= size ? -(shown - size) / 2 : 0 }
        return (zoom, Point(x: axis(fitted.viewUnits.x, table.width), y: axis(fitted.viewUnits.y, table.height)))
    }

    /// Whether a screen row is in the message area below the table.
    public func isMessageRow(_ row: Int) -> Bool {
        row >= viewTop + viewRows && row < height - 1
    }

    /// The view origin kept where the view shows the table: all of it where
    /// it fits the view (anywhere in it), else at least half the view's width
    /// (height) of it. Not flush with the table's edges: zooming about a point
    /// near a corner (the wheel) must be free to keep that point under the
    /// pointer, and a view pushed back inside the table moved the corner off
    /// the screen.
    public func clamp(_ view: Point, table: TableGeometry) -> Point {
        func axis(_ v: Int, _ shown: Int, _ size: Int) -> Int {
            let lo = shown >= size ? size - shown : -shown / 2, hi = shown >= size ? 0 : size - shown / 2
            return min(max(lo, v), hi)
        }
        return Point(x: axis(view.x, viewUnits.x, table.width), y: axis(view.y, viewUnits.y, table.height))
    }

    /// The view origin moved as little as needed to show a piece at `point` whole
    /// (with a one-unit margin where possible), then clamped.
    public func follow(_ point: Point, view: Point, table: TableGeometry) -> Point {
        let unit = table.unit
        func axis(_ v: Int, _ p: Int, _ shown: Int) -> Int {
            let margin = shown >= unit + 2 ? 1 : 0
            if p - margin < v { return p - margin }
            if p + unit + margin > v + shown { return p + unit + margin - shown }
            return v
        }
        return clamp(Point(x: axis(view.x, point.x, viewUnits.x), y: axis(view.y, point.y, viewUnits.y)), table: table)
    }

    /// The next zoom level in or out. Out stops at the level that shows the
    /// whole table: smaller still would only shrink it into a blob.
    public func nextZoom(in zoomIn: Bool, table: TableGeometry) -> TableZoom {
        if zoomIn { return zoom.zoomedIn }
        let levels = TableZoom.levels
        guard let current = levels.firstIndex(of: zoom), let out = levels.firstIndex(of: zoom.zoomedOut),
              let whole = levels.firstIndex(of: fit(table: table).zoom) else { return zoom.zoomedOut }
        return levels[min(out, max(whole, current))]
    }

    /// The screen cell of the table view showing table point `point`, or nil
    /// when it is out of sight (the inverse of `tablePoint`).
    public func screenCell(of point: Point, view: Point, shift: Point = Point(x: 0, y: 0)) -> (row: Int, column: Int)? {
        let column = zoom.pixel(point.x - view.x) - shift.x, pixelRow = zoom.pixel(point.y - view.y) - shift.y
        let row = viewTop + TableZoom.floorDiv(pixelRow, 2)
        guard row >= viewTop, row < viewTop + viewRows, column >= 0, column < viewColumns else { return nil }
        return (row, column)
    }

    /// The screen cell a key zoom keeps in place: the middle of a held piece
    /// at `held` (its corner) while it is in sight, so the piece stays under
    /// the player's eyes; else the middle of the view.
    public func zoomAnchor(held: Point?, view: Point, shift: Point = Point(x: 0, y: 0), table: TableGeometry) -> (row: Int, column: Int) {
        if let held, let cell = screenCell(of: Point(x: held.x + table.unit / 2, y: held.y + table.unit / 2), view: view, shift: shift) {
            return cell
        }
        return (viewTop + viewRows / 2, viewColumns / 2)
    }

    /// The view (and its shift in pixels) after zooming to `zoom` so that the
    /// pixel under screen cell (`row`, `column`) stays under it (the mouse
    /// wheel), then clamped: the cell shows the middle of what it showed,
    /// with that middle as near the cell's own middle as the new pixels'
    /// edges allow (so steps in and out do not wander). Exact because the view
    /// may start inside a table unit (`shift`), where a unit spans several pixels.
    public func zoom(to zoom: TableZoom, keeping row: Int, _ column: Int, view: Point, shift: Point = Point(x: 0, y: 0),
                     table: TableGeometry) -> (view: Point, shift: Point) {
        let next = zoomed(zoom)
        guard row >= viewTop, row < viewTop + viewRows, column >= 0, column < viewColumns else {
            return (next.clamp(view, table: table), Point(x: 0, y: 0))
        }
        let old = fineSpan(row: row, column: column, view: view, shift: shift)
        let f = TableZoom.finePerUnit, q = zoom.finePerPixel
        // One axis: the view's start (whole units, and pixels past them) whose
        // `index`-th span of `span` pixels holds the middle of `was`, nearest its own middle.
        func axis(_ was: Range<Int>, index: Int, span: Int) -> (view: Int, shift: Int) {
            let size = span * q
            let middle = (was.lowerBound + was.upperBound) / 2
            var best: (view: Int, shift: Int, off: Int)?
            // Smallest shifts first; for each, the starts whose span holds the middle.
            for s in 0..<f {
                let latest = TableZoom.floorDiv(middle - index * size - s * q, f)
                for v in stride(from: latest, through: latest - size / f - 1, by: -1) {
                    let start = f * v + s * q + index * size
                    guard start <= middle, middle < start + size else { continue }
                    let off = abs(2 * (middle - start) - size)
                    if best == nil || off < best!.off { best = (v, s, off) }
                }
            }
            return best.map { ($0.view, $0.shift) } ?? (TableZoom.floorDiv(middle, f), 0)
        }
        let x = axis(old.x, index: column, span: 1), y = axis(old.y, index: row - viewTop, span: 2)
        let kept = Point(x: x.view, y: y.view)
        let clamped = next.clamp(kept, table: table)
        // Pushed back inside the table: the pixel cannot stay; whole units then.
        return clamped == kept ? (kept, Point(x: x.shift, y: y.shift)) : (clamped, Point(x: 0, y: 0))
    }
}
