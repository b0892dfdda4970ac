extension RoomState {
    /// The cell a held piece would land in if dropped now with its top-left at `point`:
    /// the cell every client highlights.
    ///
    /// Jigsaw: the cell under the point if the piece may go there at `rotation`;
    /// otherwise the nearest allowed cell among the 8 around it (by distance from
    /// the point to each cell's origin, ties to the lower row then column);
    /// otherwise none. Swap: the cell under the point, unless it is the tile's own
    /// cell or its tile is held by another player. O(1) in the number of pieces.
    public func dropTarget(piece: Int, at point: Point, rotation: Int, holder: PlayerID) -> Cell? {
        switch spec.kind {
        case .swap:
            guard let cell = geometry.cell(under: point), pieces[piece].location != .board(cell) else { return nil }
            let other = Int(occupant[geometry.index(of: cell)])
            if let lock = locks[other], lock.holder != holder { return nil }
            return cell
        case .jigsaw:
            let center = geometry.gridCell(under: point)
            if geometry.isOnBoard(center), fits(piece: piece, rotation: rotation, in: center) { return center }
            var best: Cell?
            var bestDistance = Int.max
            for dr in -1...1 {
                for dc in -1...1 where dr != 0 || dc != 0 {
                    let c = Cell(row: center.row + dr, col: center.col + dc)
                    guard geometry.isOnBoard(c), fits(piece: piece, rotation: rotation, in: c) else { continue }
                    let o = geometry.origin(of: c)
                    let d = (o.x - point.x) * (o.x - point.x) + (o.y - point.y) * (o.y - point.y)
                    // Scanning rows then columns in order makes ties go to the lower cell.
                    if d < bestDistance {
                        bestDistance = d
                        best = c
                    }
                }
            }
            return best
        }
    }

    /// Whether a jigsaw piece may be placed in `cell` at `rotation`: the cell is free
    /// (or is the piece's own), every edge fits the neighbour already on the board,
    /// and flat edges face the border and only the border.
    public func fits(piece: Int, rotation: Int, in cell: Cell) -> Bool {
        let here = Int(occupant[geometry.index(of: cell)])
        if here >= 0 && here != piece { return false }
        for side in Side.allCases {
            let edge = cut.edge(piece: piece, side: side, rotation: rotation)
            let (dr, dc) = side.step
            let n = Cell(row: cell.row + dr, col: cell.col + dc)
            guard geometry.isOnBoard(n) else {
                if edge != .flat { return false }
                continue
            }
            if edge == .flat { return false }
            let q = Int(occupant[geometry.index(of: n)])
            if q >= 0 && q != piece {
                let theirs = cut.edge(piece: q, side: side.opposite, rotation: pieces[q].rotation)
                if theirs != edge.complement { return false }
            }
        }
        return true
    }
}
