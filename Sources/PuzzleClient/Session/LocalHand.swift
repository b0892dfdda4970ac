import PuzzleCore

/// What this player's hand does ahead of the server: where its last drag put
/// a piece (shown until the server has answered every drag), the pieces whose
/// hold lapsed under it (so a release that comes too late says why), and
/// where Tab's walk through the free pieces has got to.
struct LocalHand: Sendable {
    /// The point the last drag asked for, ahead of the server's echo.
    private(set) var drag: (piece: Int, point: Point)?
    /// This player's pieces whose hold lapsed since it last took them.
    private(set) var lapsed: Set<Int> = []
    /// The piece Tab took last (-1: none yet on this puzzle).
    private(set) var tabCursor = -1

    /// A drag of `piece` to `point` is asked for; false (and nothing to
    /// send) when this screen shows it there already: where the last drag
    /// put it, or the room's point once that is answered (a pointer that
    /// comes back to where the piece lies sends no drag).
    mutating func drag(_ piece: Int, to point: Point, in state: RoomState) -> Bool {
        if position(of: piece, in: state) == point { return false }
        drag = (piece, point)
        return true
    }

    /// The server answered the last drag in flight, or the link went: the room's point holds again.
    mutating func dragSettled() {
        drag = nil
    }

    /// Where `piece` lies on this screen: where the last drag put it (a
    /// piece of the part it carries: beside it), else where the room says.
    func position(of piece: Int, in state: RoomState) -> Point? {
        if let drag, drag.piece == piece { return drag.point }
        guard let drag, piece >= 0, piece < state.pieceCount else { return state.position(of: piece) }
        guard state.grip(of: piece) == drag.piece else { return state.position(of: piece) }
        return state.board.point(of: piece, grip: drag.piece, at: drag.point, rotation: state.displayRotation(of: piece))
    }

    /// A room event: this player (`me`) took a piece, or its hold on one lapsed.
    mutating func observe(_ body: EventBody, me: PlayerID) {
        if case .returned(let p, me, .expired) = body { lapsed.insert(p) }
        if case .grabbed(let p, me) = body { lapsed.remove(p) }
    }

    /// Tab: the next free piece (not held, nor its part, not already right)
    /// after the last one Tab took, taken as the walk's place; nil when none
    /// is free. A part is taken once, by its lowest piece: Tab goes from part
    /// to part, not through the pieces of one.
    mutating func nextFree(in state: RoomState) -> Int? {
        guard state.pieceCount > 0 else { return nil }
        for step in 1...state.pieceCount {
            let p = (tabCursor + step + state.pieceCount) % state.pieceCount
            guard state.isFree(p), state.parts.part(of: p).map({ $0 == p && state.grip(of: p) == nil }) ?? true else { continue }
            tabCursor = p
            return p
        }
        return nil
    }

    /// A new puzzle: Tab starts again from its first piece.
    mutating func restartTab() {
        tabCursor = -1
    }
}
