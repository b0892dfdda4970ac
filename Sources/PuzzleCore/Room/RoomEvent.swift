/// Why a held piece went back to where it was grabbed.
public enum ReturnReason: String, Hashable, Sendable {
    /// The holder cancelled the drag.
    case released
    /// The lease ran out without activity from the holder.
    case expired
    /// The holder left the room (or was disconnected).
    case left
    /// A swap tile was dropped where it could not go.
    case noTarget = "no_target"
}

/// Something that happened in a room. Applying a room's events in order to its
/// starting state reproduces its state exactly (`RoomState.apply`).
public enum EventBody: Hashable, Sendable {
    /// A player arrived. `color`: its colour slot when that is not the
    /// lowest free one (it took its own colour again); nil: the lowest free.
    /// So the event reads as before whenever the old rule gives the slot.
    case joined(PlayerID, name: String, color: Int? = nil)
    case left(PlayerID)
    case grabbed(piece: Int, by: PlayerID)
    /// Transient: does not advance the sequence number (slow readers may miss some).
    case dragged(piece: Int, by: PlayerID, to: Point, target: Cell?)
    case rotated(piece: Int, by: PlayerID, rotation: Int, target: Cell?)
    /// A jigsaw piece was dropped: into a cell, or onto the table.
    case placed(piece: Int, by: PlayerID, at: PieceLocation, rotation: Int)
    /// A swap tile was dropped on another cell: the two tiles traded cells.
    case swapped(piece: Int, other: Int, by: PlayerID)
    /// Right after a drop on the table (`placed`): the part of `other` joined
    /// the part of `piece` (two picture neighbours), `other`'s part first
    /// moving rigidly into exact place beside `piece`. The joined part is
    /// named by its lowest piece.
    case merged(piece: Int, other: Int, by: PlayerID)
    /// A held piece went back to where it was grabbed.
    case returned(piece: Int, by: PlayerID, reason: ReturnReason)
    case solved(puzzle: Int, elapsedMillis: Int64)
    case nextPuzzle(puzzle: Int, spec: PuzzleSpec)
    case hint(by: PlayerID, untilMillis: Int64)
    /// A player absent for longer than the server keeps absent players was
    /// forgotten: its record goes, its moves stay in the room's totals.
    case forgotten(PlayerID)

    /// Whether this event advances the room's sequence number.
    public var isSequenced: Bool {
        if case .dragged = self { return false }
        return true
    }

    /// Whether the event changes what survives a restart (pieces' places, puzzle
    /// progress, who played and their counters, when the clock ran): these go
    /// to the durable journal. Grabs, drags and other holds' events do not (no
    /// hold survives a restart), so the relay's hot path never writes.
    public var isDurable: Bool {
        switch self {
        case .placed, .swapped, .merged, .solved, .nextPuzzle, .joined, .left, .hint, .forgotten: return true
        default: return false
        }
    }

    /// The stable wire name of the event.
    public var name: String {
        switch self {
        case .joined: return "joined"
        case .left: return "left"
        case .grabbed: return "grabbed"
        case .dragged: return "dragged"
        case .rotated: return "rotated"
        case .placed: return "placed"
        case .swapped: return "swapped"
        case .merged: return "merged"
        case .returned(_, _, let reason): return reason == .expired ? "expired" : reason == .released ? "released" : "returned"
        case .solved: return "solved"
        case .nextPuzzle: return "next"
        case .hint: return "hint"
        case .forgotten: return "forgotten"
        }
    }
}

/// An event with its room sequence number and the room clock time it happened at.
public struct RoomEvent: Hashable, Sendable {
    /// The room's sequence number after this event (transient events carry the
    /// current number without advancing it).
    public var seq: UInt64
    public var time: Int64
    public var body: EventBody

    public init(seq: UInt64, time: Int64, body: EventBody) {
        self.seq = seq
        self.time = time
        self.body = body
    }
}
