import PuzzleCore

/// One room as ROOMS lists it (`S room <name> kind= size= rotation= players=
/// password= puzzle= progress=c/t watchers= [seats=] [solved]`): what a
/// player needs to choose a room, without joining it.
public struct RoomListing: Hashable, Sendable {
    public var name: String
    public var kind: PuzzleKind
    public var rows: Int
    public var cols: Int
    public var rotation: Bool
    /// Players present, a version 2 player away after a dropped link among
    /// them (as WHO lists them), not the absent ones who left.
    public var players: Int
    /// Whether JOIN needs a password.
    public var password: Bool
    /// The room's current puzzle in its sequence.
    public var puzzle: Int
    /// Pieces in their home cells, and the puzzle's pieces.
    public var correct: Int
    public var total: Int
    public var watchers: Int
    /// The most players the room seats, when it limits them.
    public var seats: Int?
    public var solved: Bool

    public init(name: String, kind: PuzzleKind, rows: Int, cols: Int, rotation: Bool, players: Int, password: Bool,
                puzzle: Int, correct: Int, total: Int, watchers: Int, seats: Int? = nil, solved: Bool = false) {
        self.name = name
        self.kind = kind
        self.rows = rows
        self.cols = cols
        self.rotation = rotation
        self.players = players
        self.password = password
        self.puzzle = puzzle
        self.correct = correct
        self.total = total
        self.watchers = watchers
        self.seats = seats
        self.solved = solved
    }
}
