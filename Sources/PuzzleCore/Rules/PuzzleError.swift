/// Why the core refused an action. Every refusal changes nothing.
public enum PuzzleError: Error, Hashable, Sendable {
    case unknownPiece(Int)
    case unknownPlayer(PlayerID)
    case alreadyJoined(PlayerID)
    /// The piece is held by another player (named so the client can say who).
    case heldBy(piece: Int, holder: PlayerID)
    /// The player acted on a piece it does not hold (drag, rotate, drop or release).
    case notHolder(piece: Int)
    /// The player already holds as many pieces as the room allows.
    case holdLimit(Int)
    case offTable(Point)
    case rotationDisabled
    case sizeOutOfRange(rows: Int, cols: Int)
    case notSolved
    case alreadySolved
    case hintUsed
    case sequenceMismatch(expected: UInt64, got: UInt64)

    /// A stable code for the wire protocol.
    public var code: String {
        switch self {
        case .unknownPiece: return "UNKNOWN_PIECE"
        case .unknownPlayer: return "UNKNOWN_PLAYER"
        case .alreadyJoined: return "ALREADY_JOINED"
        case .heldBy: return "HELD"
        case .notHolder: return "NOT_HOLDER"
        case .holdLimit: return "HOLD_LIMIT"
        case .offTable: return "OFF_TABLE"
        case .rotationDisabled: return "ROTATION_OFF"
        case .sizeOutOfRange: return "BAD_SIZE"
        case .notSolved: return "NOT_SOLVED"
        case .alreadySolved: return "SOLVED"
        case .hintUsed: return "HINT_USED"
        case .sequenceMismatch: return "SEQ_MISMATCH"
        }
    }

    /// A human sentence; `name` turns a player id into a display name.
    public func message(name: (PlayerID) -> String = { "player \($0.rawValue)" }) -> String {
        switch self {
        case .unknownPiece(let p): return "no piece \(p)"
        case .unknownPlayer(let id): return "\(name(id)) is not in the room"
        case .alreadyJoined(let id): return "\(name(id)) is already in the room"
        case .heldBy(let p, let holder): return "piece \(p) is held by \(name(holder))"
        case .notHolder(let p): return "you do not hold piece \(p)"
        case .holdLimit(let n): return "you already hold \(n) piece\(n == 1 ? "" : "s")"
        case .offTable(let p): return "point \(p.x) \(p.y) is off the table"
        case .rotationDisabled: return "rotation is off in this room"
        case .sizeOutOfRange(let r, let c): return "size \(r)x\(c) is out of range (2..100 each)"
        case .notSolved: return "the current puzzle is not solved yet"
        case .alreadySolved: return "the puzzle is solved; ask for the next one"
        case .hintUsed: return "you have already used your hint for this puzzle"
        case .sequenceMismatch(let e, let g): return "event sequence \(g) does not follow \(e - 1)"
        }
    }
}
