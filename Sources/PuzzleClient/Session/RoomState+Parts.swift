import PuzzleCore

/// What the client needs to know about parts (pieces joined on the table,
/// `PartTable`) to draw and carry them: how far a part reaches from the piece
/// it is held by, and where that piece may go so the whole part stays on the
/// table. O(1) each: the corners of the part's home box decide it.
extension RoomState {
    /// The cells the pieces that move with `grip` reach beside it, turned
    /// `rotation`: the smallest and largest column and row offsets from the
    /// grip's cell (all zero for a piece on its own).
    func partExtent(of grip: Int, rotation: Int) -> (minDx: Int, minDy: Int, maxDx: Int, maxDy: Int) {
        let cols = spec.cols
        let box = parts.box(with: grip, cols: cols)
        let a = board.cellOffset(of: box.minRow * cols + box.minCol, from: grip, rotation: rotation)
        let b = board.cellOffset(of: box.maxRow * cols + box.maxCol, from: grip, rotation: rotation)
        return (min(a.dx, b.dx), min(a.dy, b.dy), max(a.dx, b.dx), max(a.dy, b.dy))
    }

    /// `point` for `grip`'s corner, moved as little as needed for every piece
    /// that moves with it to lie wholly on the table (`PieceBoard.fitsOnTable`):
    /// a drag the client sends is never refused `OFF_TABLE`. A part too big for
    /// the table at this rotation keeps to its top-left.
    func clampedOnTable(_ grip: Int, at point: Point, rotation: Int) -> Point {
        let g = geometry, u = g.unit
        let e = partExtent(of: grip, rotation: rotation)
        let lowX = -e.minDx * u, highX = g.width - u - e.maxDx * u
        let lowY = -e.minDy * u, highY = g.height - u - e.maxDy * u
        return Point(x: max(lowX, min(point.x, highX)), y: max(lowY, min(point.y, highY)))
    }

    /// How many pieces move with `piece` (1: it is in no part).
    func partSize(of piece: Int) -> Int { parts.size(with: piece) }

    /// The piece of the part `grip` is in whose square covers table point
    /// `point` when the grip's corner is at `corner`, turned `rotation`
    /// (for a piece on its own: itself when it covers the point). O(1).
    func member(of grip: Int, at point: Point, corner: Point, rotation: Int) -> Int? {
        let u = geometry.unit
        let dx = point.x - corner.x, dy = point.y - corner.y
        var cx = TableZoom.floorDiv(dx, u), cy = TableZoom.floorDiv(dy, u)
        if cx == 0 && cy == 0 { return grip }
        guard let part = parts.part(of: grip) else { return nil }
        // Back to the picture's offsets: turned the other way (a turn maps (dx, dy) to (-dy, dx)).
        for _ in 0..<((4 - (rotation & 3)) & 3) { (cx, cy) = (-cy, cx) }
        let row = grip / spec.cols + cy, col = grip % spec.cols + cx
        guard row >= 0, row < spec.rows, col >= 0, col < spec.cols else { return nil }
        let m = row * spec.cols + col
        return parts.part(of: m) == part ? m : nil
    }
}
