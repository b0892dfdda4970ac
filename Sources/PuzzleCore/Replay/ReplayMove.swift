/// One move of a finished (or running) puzzle, as its replay keeps it: who
/// made it, when on the puzzle clock, and what it changed.
///
/// Only moves are kept (a drop that changed a piece's place or turn, or a
/// swap; see PROTOCOL.md, *Moves*): grabs, drags and drops that left a piece
/// as it was change nothing a replay shows.
public struct ReplayMove: Hashable, Sendable {
    /// What a move changed.
    public enum Change: Hashable, Sendable {
        /// A jigsaw piece dropped into a cell or onto the table, at a rotation.
        case placed(piece: Int, at: PieceLocation, rotation: Int)
        /// A swap tile dropped on another cell: the two traded cells.
        case swapped(piece: Int, other: Int)
        /// Two parts joined on the table right after a drop (not a move of
        /// its own: it is kept so that a replay shows parts forming).
        case merged(piece: Int, other: Int)
    }

    /// The puzzle clock (play time) when the move was made, in milliseconds.
    public var elapsed: Int64
    public var player: PlayerID
    public var change: Change

    public init(elapsed: Int64, player: PlayerID, change: Change) {
        self.elapsed = elapsed
        self.player = player
        self.change = change
    }

    /// The piece the player moved.
    public var piece: Int {
        switch change {
        case .placed(let piece, _, _), .swapped(let piece, _), .merged(let piece, _): return piece
        }
    }

    /// The room event that makes this move (for applying it to a state).
    func event(seq: UInt64) -> RoomEvent {
        switch change {
        case .placed(let piece, let at, let rotation):
            return RoomEvent(seq: seq, time: elapsed, body: .placed(piece: piece, by: player, at: at, rotation: rotation))
        case .swapped(let piece, let other):
            return RoomEvent(seq: seq, time: elapsed, body: .swapped(piece: piece, other: other, by: player))
        case .merged(let piece, let other):
            return RoomEvent(seq: seq, time: elapsed, body: .merged(piece: piece, other: other, by: player))
        }
    }

    /// Whether this counts as a move (a join does not: it comes with the drop that made it).
    public var isMove: Bool {
        if case .merged = change { return false }
        return true
    }
}
