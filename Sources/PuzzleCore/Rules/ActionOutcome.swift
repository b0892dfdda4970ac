/// What an accepted action did, as the core decided it. A server answers the
/// request from this (nothing re-reads the board to find out).
public enum ActionOutcome: Hashable, Sendable {
    case joined
    case left
    case grabbed(piece: Int)
    /// `target`: the cell a drop now would land in, if any.
    case dragged(piece: Int, to: Point, target: Cell?)
    case rotated(piece: Int, rotation: Int, target: Cell?)
    /// `solved`: this drop solved the puzzle. `moved`: it counts as a move
    /// (it changed a piece's place or turn; a drop that leaves the piece as it
    /// was, or a swap tile going back, does not).
    case dropped(piece: Int, DropOutcome, solved: Bool, moved: Bool)
    case released(piece: Int)
    /// The hold's lease now runs until room clock `until`. KEEP makes no
    /// event: apply the outcome (`RoomState.apply(_:)`) to renew the lease.
    case kept(piece: Int, until: Int64)
    /// The hint shows for `millis` (until the room clock reaches `until`).
    case hint(millis: Int64, until: Int64)
    /// The room moved on to puzzle `puzzle`.
    case next(puzzle: Int, spec: PuzzleSpec)
}
