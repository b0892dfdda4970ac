/// Why a recorded room state could not be rebuilt.
public enum SnapshotError: Error, Hashable, Sendable {
    case pieceCount(expected: Int, got: Int)
    case badPiece(Int)
    case badHold(Int)
    /// A recorded part that is not sound (see `PieceBoard`'s check): its first piece.
    case badPart(Int)
    /// A colour slot out of range, or one two present players share (the player's id).
    case badColorSlot(Int)
    case malformed(String)
}
