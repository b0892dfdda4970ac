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
    /// Drops committed by this player in the current room (places, table drops, swaps).
    public var moves: Int = 0
    /// Pieces this player holds, in the order grabbed.
    public var holding: [Int] = []
    /// Whether this player has used the hint for the current puzzle.
    public var hintUsed = false
    /// Until when (room clock, ms) the hint shows, if it is showing or has shown.
    public var hintUntil: Int64? = nil

    public init(name: String) { self.name = name }
}
