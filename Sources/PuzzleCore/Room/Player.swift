/// A player's identity within a room (assigned by whoever hosts the room).
public struct PlayerID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: PlayerID, b: PlayerID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "\(rawValue)" }
}

/// What a room knows about one of its players.
public struct PlayerInfo: Hashable, Sendable {
    public var name: String
    /// Drops committed by this player on the current puzzle (places, table drops, swaps).
    public var moves: Int = 0
    /// Drops committed by this player on every puzzle of the room's sequence.
    public var totalMoves: Int = 0
    /// Pieces this player holds, in the order grabbed.
    public var holding: [Int] = []
    /// Whether this player has used the hint for the current puzzle (kept while
    /// the player is away, so that leaving and coming back does not renew it).
    public var hintUsed = false
    /// Until when (room clock, ms) the hint shows, if it is showing or has shown.
    public var hintUntil: Int64? = nil
    /// The player's colour slot while present: the one it had last (the
    /// server keeps it per player) if no other present player had it when it
    /// arrived, else the lowest such slot; kept while it stays (also while
    /// away after a dropped link). Clients draw slot `n` in the `n`th colour
    /// and marker, so no two players present share one. Meaningless while
    /// absent: a player coming back gets a slot again.
    public var colorSlot: Int = 0

    public init(name: String) { self.name = name }
}
