import PuzzleCore

/// What part of the table the player sees and how large: the screen's size, the zoom, the
/// table point at the view's top-left, whether the view keeps the whole table fitted or
/// follows the held piece, and whether piece numbers are drawn. Pure: every change is a
/// method here, given the room as the session mirrors it.
public struct TableViewport: Sendable {
    /// The screen's rows and columns.
    public internal(set) var size = (rows: 24, cols: 80)
    /// Table point (units) shown at the top-left of the table view.
    public internal(set) var origin = Point(x: 0, y: 0) {
        // Any other move of the view starts it on a whole unit again.
        didSet { if origin != oldValue { shift = Point(x: 0, y: 0) } }
    }
    /// Pixels the view starts past `origin` (`Scene.viewShift`): set by a zoom
    /// about a point, so that the pixel there stays put.
    public internal(set) var shift = Point(x: 0, y: 0)
    /// How large the table is drawn.
    public internal(set) var zoom = TableZoom.standard
    /// Whether the view keeps the whole table fitted (until the player zooms or pans).
    public internal(set) var autoFit = true
    /// Whether the view keeps the held piece in sight.
    public internal(set) var followHeld = true
    /// Whether piece numbers are drawn on the pieces.
    public internal(set) var showNumbers = true
    /// The room and puzzle the view was last fitted to: a new one is fitted again.
    var fittedPuzzle: (room: String, puzzle: Int)?

    public init() {}

    /// The screen's parts at this size and zoom.
    public var layout: SceneLayout { SceneLayout(width: size.cols, height: size.rows, zoom: zoom) }

    /// Moves the view by `dx`, `dy` units; the player now steers it.
    mutating func pan(dx: Int, dy: Int) {
        followHeld = false
        autoFit = false
        origin = Point(x: origin.x + dx, y: origin.y + dy)
    }

    /// The player moved the view by hand (a drag, the map): it stays where put.
    mutating func steer(to point: Point) {
        origin = point
        autoFit = false
        followHeld = false
    }

    /// Shows the whole table: the largest zoom at which it fits, centred.
    mutating func fit(_ st: RoomState, room: String?) {
        let fitted = layout.fit(table: st.geometry)
        zoom = fitted.zoom
        origin = fitted.view
        shift = Point(x: 0, y: 0)
        fittedPuzzle = (room ?? "", st.puzzleIndex)
    }

    /// Zooms one level in or out about the held piece (or the view's middle),
    /// or fits the whole table again.
    mutating func setZoom(_ step: ZoomStep, session: ClientSession) {
        guard let st = session.state else { return }
        switch step {
        case .fit:
            autoFit = true
            fit(st, room: session.room)
        case .zoomIn, .zoomOut:
            let next = layout.nextZoom(in: step == .zoomIn, table: st.geometry)
            if step == .zoomOut && next == layout.fit(table: st.geometry).zoom {
                // Zoomed out as far as it goes: the whole table, kept fitted (as /zoom fit).
                autoFit = true
                fit(st, room: session.room)
                return
            }
            let held = session.heldPiece.flatMap(session.shownPosition(of:))
            let anchor = layout.zoomAnchor(held: held, view: origin, shift: shift, table: st.geometry)
            let kept = layout.zoom(to: next, keeping: anchor.row, anchor.column, view: origin, shift: shift, table: st.geometry)
            origin = kept.view
            shift = kept.shift
            zoom = next
            autoFit = false
        }
    }

    /// One wheel step over the table: zooms in or out keeping the point under the
    /// pointer (`row`, `column`) in place.
    mutating func wheelZoom(in zoomIn: Bool, row: Int, column: Int, table: TableGeometry) {
        let next = layout.nextZoom(in: zoomIn, table: table)
        let kept = layout.zoom(to: next, keeping: row, column, view: origin, shift: shift, table: table)
        origin = kept.view
        shift = kept.shift
        zoom = next
        autoFit = false
        followHeld = false
    }

    /// Centres the view on table point `p`.
    mutating func centre(on p: Point, table: TableGeometry) {
        let shown = layout.viewUnits
        steer(to: layout.clamp(Point(x: p.x - shown.x / 2, y: p.y - shown.y / 2), table: table))
    }

    /// Fits, follows and clamps the view for the room as it is now: before
    /// every frame, and before a mouse event is mapped to the table, so a click
    /// lands where the player saw it even before the first frame of a new room.
    mutating func update(for session: ClientSession) {
        guard let st = session.state else { return }
        // A room or puzzle seen for the first time is shown whole; so is a
        // resized terminal while the player has not zoomed or panned.
        if fittedPuzzle?.room != session.room || fittedPuzzle?.puzzle != st.puzzleIndex {
            autoFit = true
            fit(st, room: session.room)
        } else if autoFit {
            fit(st, room: session.room)
        }
        if followHeld, let point = session.heldPiece.flatMap(session.shownPosition(of:)) {
            origin = layout.follow(point, view: origin, table: st.geometry)
        }
        origin = layout.clamp(origin, table: st.geometry)
    }
}
