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
        case .placed(let piece, _, _), .swapped(let piece, _): return piece
        }
    }

    /// The room event that makes this move (for applying it to a state).
    func event(seq: UInt64) -> RoomEvent {
        switch change {
        case .placed(let piece, let at, let rotation):
            return RoomEvent(seq: seq, time: elapsed, body: .placed(piece: piece, by: player, at: at, rotation: rotation))
        case .swapped(let piece, let other):
            return RoomEvent(seq: seq, time: elapsed, body: .swapped(piece: piece, other: other, by: player))
        }
    }
}
