/// Where a piece's committed place is: in a board cell, or loose on the table.
public enum PieceLocation: Hashable, Sendable, CustomStringConvertible {
    case board(Cell)
    case table(Point)

    public var cell: Cell? {
        if case .board(let c) = self { return c }
        return nil
    }

    public var description: String {
        switch self {
        case .board(let c): return "cell \(c.row) \(c.col)"
        case .table(let p): return "table \(p.x) \(p.y)"
        }
    }
}

/// A piece's committed state: where it lies and how it is turned (quarter turns clockwise).
public struct PieceState: Hashable, Sendable {
    public var location: PieceLocation
    public var rotation: Int

    public init(location: PieceLocation, rotation: Int = 0) {
        self.location = location
        self.rotation = rotation
    }
}

/// An exclusive, leased hold on one piece.
///
/// While held, the piece keeps its committed place (a lifted board piece keeps its
/// cell reserved, so nothing can be lost or doubled); the hold carries where the
/// holder is dragging it and how it is turned now. Expiry, release, or the holder
/// leaving drop the hold and leave the committed place untouched: the piece is
/// back where it was grabbed.
public struct PieceLock: Hashable, Sendable {
    public var holder: PlayerID
    /// Room clock (ms) after which the hold lapses unless renewed.
    public var expiresAt: Int64
    /// Where the holder has dragged the piece's top-left corner.
    public var point: Point
    /// The piece's rotation while held (committed on drop).
    public var rotation: Int
    /// The cell every client highlights: where a drop now would land.
    public var target: Cell?

    public init(holder: PlayerID, expiresAt: Int64, point: Point, rotation: Int, target: Cell?) {
        self.holder = holder
        self.expiresAt = expiresAt
        self.point = point
        self.rotation = rotation
        self.target = target
    }
}
