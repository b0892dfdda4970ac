import PuzzleCore
@testable import PuzzleClient

/// Rooms in known states for renderer tests: two players each dragging a piece.
enum SceneFixtures {
    static let alice = PlayerID(1)
    static let bob = PlayerID(2)

    /// A room of `kind` where alice and bob each hold a piece and have dragged it
    /// onto a board cell, so both drop targets are highlighted.
    static func twoDrags(kind: PuzzleKind, rows: Int = 2, cols: Int = 2, seed: UInt64 = 3) throws -> RoomState {
        let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols)
        var st = RoomState(settings: RoomSettings(first: spec, leaseMillis: 10_000, seed: seed))
        var events: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: alice, at: 0, into: &events)
        try st.perform(.join(name: "bob"), by: bob, at: 0, into: &events)
        let g = st.geometry
        // alice takes piece 0 towards cell (1,1), bob piece 1 towards cell (0,0), or
        // (on a swap board) the next cell when that is where the tile already lies.
        try st.perform(.grab(piece: 0), by: alice, at: 1, into: &events)
        try st.perform(.grab(piece: 1), by: bob, at: 1, into: &events)
        var aCell = Cell(row: 1, col: 1), bCell = Cell(row: 0, col: 0)
        if st.pieces[0].location == .board(aCell) { aCell = Cell(row: 1, col: 0) }
        if st.pieces[1].location == .board(bCell) || bCell == aCell { bCell = Cell(row: 0, col: 1) }
        let a = g.origin(of: aCell), b = g.origin(of: bCell)
        // Dragged 3 s before the scenes' clock (83 s): the 10 s leases have 7 s left.
        try st.perform(.drag(piece: 0, to: Point(x: max(0, a.x - 1), y: max(0, a.y - 1))), by: alice, at: 80_000, into: &events)
        try st.perform(.drag(piece: 1, to: Point(x: min(b.x + 1, g.width - g.unit), y: b.y)), by: bob, at: 80_000, into: &events)
        return st
    }

    /// The scene of `st` fitted to the terminal (as a freshly joined client shows
    /// it), or at `zoom` with the view at the table's corner.
    static func scene(_ st: RoomState, colorMode: ColorMode, width: Int, height: Int, zoom: TableZoom? = nil) -> Scene {
        // As the server scales it: 8x8 pixels a piece, 32 to 256 a side.
        let picture = Picture.builtin("quilt", width: max(st.spec.cols, min(256, max(32, 8 * st.spec.cols))),
                                      height: max(st.spec.rows, min(256, max(32, 8 * st.spec.rows))))
        let layout = SceneLayout(width: width, height: height)
        let fitted = layout.fit(table: st.geometry)
        let shown = zoom ?? fitted.zoom
        let view = zoom == nil ? fitted.view : layout.zoomed(shown).clamp(Point(x: 0, y: 0), table: st.geometry)
        return Scene(width: width, height: height, colorMode: colorMode, room: "lobby", state: st, picture: picture,
                     myID: alice, names: [alice: "alice", bob: "bob"], view: view, zoom: shown,
                     now: 83_000, rttMillis: 3, messages: [OutputLine(kind: .chat, text: "<bob> over here"), OutputLine(kind: .event, text: "alice grabbed piece 0")])
    }

    /// The frame as `tmux capture-pane -p -e` would show it (for looking at a frame as a picture).
    static func ansi(_ frame: Frame) -> String {
        var out = ""
        for r in 0..<frame.height {
            for c in 0..<frame.width where !frame[r, c].isContinuation {
                let cell = frame[r, c]
                var sgr = [0]
                if cell.style.bold { sgr.append(1) }
                if cell.style.inverse { sgr.append(7) }
                if let f = cell.style.foreground { sgr += [38, 2, Int(f.red), Int(f.green), Int(f.blue)] }
                if let b = cell.style.background { sgr += [48, 2, Int(b.red), Int(b.green), Int(b.blue)] }
                out += "\u{1B}[" + sgr.map(String.init).joined(separator: ";") + "m" + String(cell.character)
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    static func rows(_ frame: Frame) -> [String] {
        // A wide character's continuation cell is part of it: a row reads as the terminal shows it.
        (0..<frame.height).map { r in String((0..<frame.width).filter { !frame[r, $0].isContinuation }.map { frame[r, $0].character }) }
    }
}
