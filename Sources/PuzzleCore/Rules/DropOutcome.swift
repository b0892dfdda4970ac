/// What a drop did, as the core decided it: the reply to `DROP` says this, and
/// nothing else re-derives it from the board.
public enum DropOutcome: Hashable, Sendable {
    /// A jigsaw piece snapped into a cell.
    case placed(Cell)
    /// A jigsaw piece with no target stays on the table where it was dropped.
    case onTable(Point)
    /// A swap tile traded places with the tile in this cell (its new cell).
    case swapped(Cell)
    /// A swap tile with no target went back to its own cell.
    case returned
}
