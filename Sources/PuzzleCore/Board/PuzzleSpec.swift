/// The two kinds of puzzle a room can play.
public enum PuzzleKind: String, Hashable, Sendable, CaseIterable {
    /// Every cell holds a tile; dropping a tile on another cell swaps the two.
    case swap
    /// Pieces start on the table around an empty board and snap into cells they fit.
    case jigsaw
}

/// What one puzzle of a room is: its kind, size, picture and rules.
public struct PuzzleSpec: Hashable, Sendable {
    public static let sizeRange = 2...100
    /// The picture a puzzle shows when none is named (a built-in).
    public static let defaultPicture = "sunset"

    public var kind: PuzzleKind
    public var rows: Int
    public var cols: Int
    /// Whether jigsaw pieces start turned and may be rotated (always false for swap).
    public var rotation: Bool
    /// Name of the picture the pieces are cut from (built-in or configured PPM).
    public var picture: String

    public init(kind: PuzzleKind, rows: Int, cols: Int, rotation: Bool = false, picture: String = PuzzleSpec.defaultPicture) throws(PuzzleError) {
        guard Self.sizeRange.contains(rows), Self.sizeRange.contains(cols) else {
            throw .sizeOutOfRange(rows: rows, cols: cols)
        }
        self.kind = kind
        self.rows = rows
        self.cols = cols
        self.rotation = kind == .jigsaw && rotation
        self.picture = picture
    }

    public var pieceCount: Int { rows * cols }

    /// The puzzle that follows this one in a room: one row and one column more
    /// (capped at the largest size), same kind, picture and rotation rule (a
    /// room then picks its picture: `RoomSettings.picture(forPuzzle:)`).
    public func next() -> PuzzleSpec {
        var s = self
        s.rows = min(rows + 1, Self.sizeRange.upperBound)
        s.cols = min(cols + 1, Self.sizeRange.upperBound)
        return s
    }

    public var geometry: TableGeometry {
        kind == .jigsaw ? TableGeometry.jigsaw(rows: rows, cols: cols) : TableGeometry(rows: rows, cols: cols, marginCells: 0)
    }
}

extension PuzzleSpec {
    /// Most pieces a room may ask for by count (`CREATE den jigsaw 500`).
    public static let pieceCountRange = 4...10_000

    /// The rows and columns closest to `pieces` pieces whose square pieces
    /// match a picture `aspectWidth` by `aspectHeight` (so a photo is cut
    /// with as little cropped as may be): for each row count, the columns that
    /// keep the shape, scored by how far the count is from the one asked
    /// (relative) plus how far the shape is from the picture's (ratio over 1);
    /// the lowest score wins, fewer rows on a tie. Each side stays in `sizeRange`.
    public static func size(forPieces pieces: Int, aspectWidth: Int, aspectHeight: Int) -> (rows: Int, cols: Int) {
        let wanted = Double(max(1, pieces))
        let aspect = Double(max(1, aspectWidth)) / Double(max(1, aspectHeight))
        var best = (rows: sizeRange.lowerBound, cols: sizeRange.lowerBound, score: Double.infinity)
        for rows in sizeRange {
            let cols = min(sizeRange.upperBound, max(sizeRange.lowerBound, Int((Double(rows) * aspect).rounded())))
            let shape = Double(cols) / Double(rows) / aspect
            let score = abs(Double(rows * cols) - wanted) / wanted + (max(shape, 1 / shape) - 1)
            if score < best.score { best = (rows, cols, score) }
        }
        return (best.rows, best.cols)
    }
}
