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
        var st = RoomState(settings: RoomSettings(first: spec, seed: seed))
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
        try st.perform(.drag(piece: 0, to: Point(x: max(0, a.x - 1), y: max(0, a.y - 1))), by: alice, at: 2, into: &events)
        try st.perform(.drag(piece: 1, to: Point(x: min(b.x + 1, g.width - g.unit), y: b.y)), by: bob, at: 2, into: &events)
        return st
    }

    static func scene(_ st: RoomState, colorMode: ColorMode, width: Int, height: Int) -> Scene {
        let picture = Picture.builtin("quilt", width: 8 * st.spec.cols, height: 4 * st.spec.rows)
        return Scene(width: width, height: height, colorMode: colorMode, room: "lobby", state: st, picture: picture,
                     myID: alice, names: [alice: "alice", bob: "bob"], view: SceneLayout(width: width, height: height).clamp(Point(x: 0, y: 0), table: st.geometry),
                     now: 83_000, rttMillis: 3, messages: [OutputLine(kind: .chat, text: "<bob> over here"), OutputLine(kind: .event, text: "alice grabbed piece 0")])
    }

    static func rows(_ frame: Frame) -> [String] {
        (0..<frame.height).map { r in String((0..<frame.width).map { frame[r, $0].character }) }
    }
}
