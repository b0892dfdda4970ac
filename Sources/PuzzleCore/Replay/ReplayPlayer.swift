/// A player as a puzzle's replay names them, with what they did on that puzzle.
public struct ReplayPlayer: Hashable, Sendable {
    public var id: PlayerID
    /// The player's name when they made their first move on the puzzle.
    public var name: String
    /// Pieces this player put right: a drop into a piece's own cell at its
    /// upright turn, or each tile a swap put into its own cell.
    public var placed: Int
    /// This player's moves on the puzzle (see PROTOCOL.md, *Moves*).
    public var moves: Int

    public init(id: PlayerID, name: String, placed: Int = 0, moves: Int = 0) {
        self.id = id
        self.name = name
        self.placed = placed
        self.moves = moves
    }
}
