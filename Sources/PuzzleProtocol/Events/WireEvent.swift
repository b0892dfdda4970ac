import PuzzleCore

/// A line the server pushes without being asked: `EV <seq> <name> <args...>`.
public enum WireEvent: Hashable, Sendable {
    /// A room event (the core's), with its sequence number.
    case room(RoomEvent)
    /// A chat line; carries the room's current sequence number without advancing it.
    case say(seq: UInt64, player: PlayerID, text: String)
    /// Someone began watching the room (version 2's `WATCH`); like chat, it
    /// carries the current sequence number without advancing it.
    case watching(seq: UInt64, player: PlayerID, name: String)
    /// A watcher stopped watching (left, joined to play, or went).
    case unwatching(seq: UInt64, player: PlayerID)

    public var seq: UInt64 {
        switch self {
        case .room(let e): return e.seq
        case .say(let seq, _, _), .watching(let seq, _, _), .unwatching(let seq, _): return seq
        }
    }
}
