/// One puzzle's pieces: the puzzle (`spec`, its table and its cut), where
/// every piece lies and how it is turned, and the two things kept in step
/// with that (which piece occupies each board cell, how many pieces are
/// right). Owns the rules that concern only pieces: moving and swapping
/// them, what is correct, where a piece may go. Holds (who has a piece in
/// hand) are the room's, not the board's: a held piece still lies at its
/// committed place here.
///
/// Every lookup is O(1) in the number of pieces.
public struct PieceBoard: Hashable, Sendable {
    public let spec: PuzzleSpec
    public let geometry: TableGeometry
    public let cut: JigsawCut
    /// Each piece's committed place and rotation, by piece id.
    public private(set) var pieces: [PieceState]
    /// Where every piece lay when the puzzle started (its layout from the
    /// seed): kept so that a snapshot can name the pieces still there
    /// instead of listing them (`SnapshotCodec`'s compact form).
    public let startPieces: [PieceState]
    /// Piece id occupying each board cell (row-major), or -1.
    private(set) var occupant: [Int32]
    /// How many pieces are in their home cell at rotation 0.
    public private(set) var correctCount: Int

    /// Puzzle `index` of a room with `seed`, at its start.
    init(spec: PuzzleSpec, seed: UInt64, index: Int) {
        let layout = PuzzleLayout(spec: spec, seed: seed, index: index)
        self.init(spec: spec, layout: layout, pieces: layout.pieces, occupant: layout.occupant)
    }

    /// Puzzle `index` of a room with `seed` with its pieces as recorded, after
    /// checking that there is one per cell of the puzzle, each turned 0...3,
    /// no two in one cell, loose ones (jigsaw only) on the table.
    init(spec: PuzzleSpec, seed: UInt64, index: Int, pieces: [PieceState]) throws(SnapshotError) {
        guard pieces.count == spec.pieceCount else { throw .pieceCount(expected: spec.pieceCount, got: pieces.count) }
        let layout = PuzzleLayout(spec: spec, seed: seed, index: index)
        let geometry = layout.geometry
        var occupant = [Int32](repeating: -1, count: spec.pieceCount)
        for (i, piece) in pieces.enumerated() {
            guard (0...3).contains(piece.rotation) else { throw .badPiece(i) }
            switch piece.location {
            case .board(let c):
                guard geometry.isOnBoard(c), occupant[geometry.index(of: c)] < 0 else { throw .badPiece(i) }
                occupant[geometry.index(of: c)] = Int32(i)
            case .table(let p):
                guard spec.kind == .jigsaw, geometry.contains(p) else { throw .badPiece(i) }
            }
        }
        self.init(spec: spec, layout: layout, pieces: pieces, occupant: occupant)
    }

    private init(spec: PuzzleSpec, layout: PuzzleLayout, pieces: [PieceState], occupant: [Int32]) {
        self.spec = spec
        geometry = layout.geometry
        cut = layout.cut
        self.pieces = pieces
        startPieces = layout.pieces
        self.occupant = occupant
        correctCount = 0
        correctCount = (0..<pieces.count).reduce(0) { $0 + (isCorrect($1) ? 1 : 0) }
    }

    public var pieceCount: Int { pieces.count }

    /// The piece occupying a board cell, if any.
    public func occupant(of cell: Cell) -> Int? {
        guard geometry.isOnBoard(cell) else { return nil }
        let p = occupant[geometry.index(of: cell)]
        return p < 0 ? nil : Int(p)
    }

    public func homeCell(of piece: Int) -> Cell { geometry.cell(at: piece) }

    /// Whether a piece is in its home cell at rotation 0.
    public func isCorrect(_ piece: Int) -> Bool {
        isCorrect(piece, at: pieces[piece].location, rotation: pieces[piece].rotation)
    }

    /// Whether a piece would be in its home cell at rotation 0 if it were at `location`.
    func isCorrect(_ piece: Int, at location: PieceLocation, rotation: Int) -> Bool {
        guard rotation == 0, case .board(let c) = location else { return false }
        return c.row * spec.cols + c.col == piece
    }

    /// Whether putting `piece` at `location` and `rotation` changes its
    /// committed place: the rule for what counts as a move (a drop that
    /// changed a piece's place or turn; a swap always does).
    public func changesPlace(_ piece: Int, to location: PieceLocation, rotation: Int) -> Bool {
        pieces[piece] != PieceState(location: location, rotation: rotation)
    }

    /// Where a piece lies (its top-left corner on the table).
    public func origin(of piece: Int) -> Point {
        switch pieces[piece].location {
        case .board(let c): return geometry.origin(of: c)
        case .table(let p): return p
        }
    }

    /// Moves a piece's committed place, keeping the cell index and the count
    /// of correct pieces in step.
    mutating func move(_ piece: Int, to location: PieceLocation, rotation: Int) {
        if isCorrect(piece) { correctCount -= 1 }
        if case .board(let old) = pieces[piece].location {
            let i = geometry.index(of: old)
            if occupant[i] == Int32(piece) { occupant[i] = -1 }
        }
        pieces[piece] = PieceState(location: location, rotation: rotation)
        if case .board(let new) = location { occupant[geometry.index(of: new)] = Int32(piece) }
        if isCorrect(piece) { correctCount += 1 }
    }

    /// Two swap tiles trade cells, both unturned.
    mutating func swap(_ piece: Int, with other: Int) {
        let a = pieces[piece].location
        let b = pieces[other].location
        // Off the board first, so that neither cell is briefly claimed by both.
        move(other, to: .table(Point(x: 0, y: 0)), rotation: 0)
        move(piece, to: b, rotation: 0)
        move(other, to: a, rotation: 0)
    }

    /// The cell `piece` would land in if dropped with its top-left at `point`
    /// and turned `rotation`, before asking whether someone else holds
    /// what is there (the room's question).
    ///
    /// Jigsaw: the cell under the point if the piece fits there; otherwise the
    /// nearest cell it fits among the 8 around it (by distance from the point
    /// to each cell's origin, ties to the lower row then column); otherwise
    /// none. Swap: the cell under the point, unless it is the tile's own.
    public func dropTarget(piece: Int, at point: Point, rotation: Int) -> Cell? {
        switch spec.kind {
        case .swap:
            guard let cell = geometry.cell(under: point), pieces[piece].location != .board(cell) else { return nil }
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
