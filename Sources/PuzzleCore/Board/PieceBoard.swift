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
    /// The pieces joined on the table (`PartTable`): each part moves as one.
    public private(set) var parts: PartTable

    /// How far (in table units, per axis) a dropped piece may lie from its
    /// exact place beside a neighbour and still join it: one unit, a quarter
    /// of a cell, which a mouse or a finger hits without trying.
    public static let snapUnits = 1

    /// Puzzle `index` of a room with `seed`, at its start.
    init(spec: PuzzleSpec, seed: UInt64, index: Int) {
        let layout = PuzzleLayout(spec: spec, seed: seed, index: index)
        self.init(spec: spec, layout: layout, pieces: layout.pieces, occupant: layout.occupant)
    }

    /// Puzzle `index` of a room with `seed` with its pieces and parts as
    /// recorded, after checking that there is one per cell of the puzzle,
    /// each turned 0...3, no two in one cell, loose ones (jigsaw only) on the
    /// table, and that every part is sound (`checkParts`).
    init(spec: PuzzleSpec, seed: UInt64, index: Int, pieces: [PieceState], parts: [[Int]] = []) throws(SnapshotError) {
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
        try checkParts(parts)
    }

    private init(spec: PuzzleSpec, layout: PuzzleLayout, pieces: [PieceState], occupant: [Int32]) {
        self.spec = spec
        geometry = layout.geometry
        cut = layout.cut
        self.pieces = pieces
        startPieces = layout.pieces
        self.occupant = occupant
        correctCount = 0
        parts = PartTable(count: pieces.count)
        correctCount = (0..<pieces.count).reduce(0) { $0 + (isCorrect($1) ? 1 : 0) }
    }

    /// Takes recorded parts after checking each: two or more pieces, sorted,
    /// in no other part, all loose on the table at one rotation, each exactly
    /// where it belongs beside the part's lowest piece, and joined to one
    /// another through picture neighbours (a part is one connected shape).
    private mutating func checkParts(_ recorded: [[Int]]) throws(SnapshotError) {
        var seen = [Bool](repeating: false, count: pieces.count)
        for members in recorded {
            guard spec.kind == .jigsaw, members.count >= 2, let first = members.first else { throw .badPart(members.first ?? -1) }
            for (k, m) in members.enumerated() {
                guard m >= 0, m < pieces.count, !seen[m], k == 0 || members[k - 1] < m,
                      case .table = pieces[m].location, pieces[m].rotation == pieces[first].rotation else { throw .badPart(first) }
                seen[m] = true
                let o = cellOffset(of: m, from: first, rotation: pieces[first].rotation)
                let p = origin(of: first)
                guard origin(of: m) == Point(x: p.x + o.dx * geometry.unit, y: p.y + o.dy * geometry.unit) else { throw .badPart(first) }
            }
            // Connected: a walk over picture neighbours from the first reaches every member.
            let set = Set(members)
            var reached: Set<Int> = [first], stack = [first]
            while let m = stack.popLast() {
                for n in homeNeighbours(of: m) where set.contains(n) && !reached.contains(n) {
                    reached.insert(n); stack.append(n)
                }
            }
            guard reached.count == members.count else { throw .badPart(first) }
            parts.adopt(members, box: homeBox(of: members))
        }
    }

    /// The pieces beside `piece` in the picture (above, right, below, left).
    func homeNeighbours(of piece: Int) -> HomeNeighbours {
        let r = piece / spec.cols, c = piece % spec.cols
        return HomeNeighbours(above: r > 0 ? piece - spec.cols : nil, right: c < spec.cols - 1 ? piece + 1 : nil,
                              below: r < spec.rows - 1 ? piece + spec.cols : nil, left: c > 0 ? piece - 1 : nil)
    }

    private func homeBox(of members: [Int]) -> PartTable.HomeBox {
        var box = PartTable.HomeBox(minRow: Int.max, minCol: Int.max, maxRow: Int.min, maxCol: Int.min)
        for m in members {
            box.minRow = min(box.minRow, m / spec.cols); box.maxRow = max(box.maxRow, m / spec.cols)
            box.minCol = min(box.minCol, m % spec.cols); box.maxCol = max(box.maxCol, m % spec.cols)
        }
        return box
    }

    // MARK: Parts: where their pieces lie

    /// Where `member` lies beside `grip` when both are turned `rotation`, in
    /// cells on the table: its home offset, turned a quarter clockwise per step.
    public func cellOffset(of member: Int, from grip: Int, rotation: Int) -> (dx: Int, dy: Int) {
        var dx = member % spec.cols - grip % spec.cols, dy = member / spec.cols - grip / spec.cols
        for _ in 0..<(rotation & 3) { (dx, dy) = (-dy, dx) }
        return (dx, dy)
    }

    /// The top-left corner of `member` when the part's `grip` has its corner at `point`, turned `rotation`.
    public func point(of member: Int, grip: Int, at point: Point, rotation: Int) -> Point {
        let o = cellOffset(of: member, from: grip, rotation: rotation)
        return Point(x: point.x + o.dx * geometry.unit, y: point.y + o.dy * geometry.unit)
    }

    /// Whether every piece that moves with `grip` lies wholly on the table
    /// when `grip`'s corner is at `point`, turned `rotation`. O(1): the
    /// corners of the part's home box decide it.
    public func fitsOnTable(_ grip: Int, at point: Point, rotation: Int) -> Bool {
        let box = parts.box(with: grip, cols: spec.cols)
        let a = cellOffset(of: box.minRow * spec.cols + box.minCol, from: grip, rotation: rotation)
        let b = cellOffset(of: box.maxRow * spec.cols + box.maxCol, from: grip, rotation: rotation)
        let u = geometry.unit
        return geometry.contains(Point(x: point.x + min(a.dx, b.dx) * u, y: point.y + min(a.dy, b.dy) * u))
            && geometry.contains(Point(x: point.x + max(a.dx, b.dx) * u, y: point.y + max(a.dy, b.dy) * u))
    }

    /// Moves `grip` and every piece joined to it: on the table, rigidly with
    /// it; into the board, each piece into its cell beside `grip`'s, where
    /// the part comes apart (pieces on the board are each on their own).
    mutating func movePart(_ grip: Int, to location: PieceLocation, rotation: Int) {
        let members = parts.pieces(with: grip)
        guard members.count > 1 else { return move(grip, to: location, rotation: rotation) }
        switch location {
        case .table(let p):
            for m in members { move(m, to: .table(point(of: m, grip: grip, at: p, rotation: rotation)), rotation: rotation) }
        case .board(let c):
            parts.dissolve(with: grip)
            for m in members {
                let o = cellOffset(of: m, from: grip, rotation: rotation)
                move(m, to: .board(Cell(row: c.row + o.dy, col: c.col + o.dx)), rotation: rotation)
            }
        }
    }

    /// How many more pieces would be correct after `movePart(grip, to:, rotation:)` (negative: fewer).
    func correctChange(ifMoving grip: Int, to location: PieceLocation, rotation: Int) -> Int {
        var change = 0
        for m in parts.pieces(with: grip) {
            var at = location
            if case .board(let c) = location, m != grip {
                let o = cellOffset(of: m, from: grip, rotation: rotation)
                at = .board(Cell(row: c.row + o.dy, col: c.col + o.dx))
            }
            change += (isCorrect(m, at: at, rotation: rotation) ? 1 : 0) - (isCorrect(m) ? 1 : 0)
        }
        return change
    }

    /// Joins the part of `other` to the part of `piece`: `other`'s part first
    /// moves rigidly so that `other` lies exactly where it belongs beside
    /// `piece` (at `piece`'s rotation). Returns the joined part's id.
    @discardableResult
    mutating func join(_ piece: Int, _ other: Int) -> Int {
        let rotation = pieces[piece].rotation
        let want = point(of: other, grip: piece, at: origin(of: piece), rotation: rotation)
        let have = origin(of: other)
        if want != have {
            for m in parts.pieces(with: other) {
                let p = origin(of: m)
                move(m, to: .table(Point(x: p.x + want.x - have.x, y: p.y + want.y - have.y)), rotation: pieces[m].rotation)
            }
        }
        return parts.join(piece, other, cols: spec.cols)
    }

    /// What a part (or a single piece) dropped loose at `point`, turned
    /// `rotation`, joins: every picture neighbour of its pieces lying loose
    /// at the same rotation within `snapUnits` of its exact place (and
    /// `isFree`: nobody holds it). The nearest decides where the dropped
    /// part snaps to (`point` moved by `shift`); every other part whose
    /// neighbour is then within the snap distance joins too, moved into
    /// exact place, unless that would take a piece off the table. Returns
    /// the pairs (a piece of the dropped part, a piece of the other part),
    /// one per part joined, nearest first; nil when nothing joins.
    public func joins(_ grip: Int, at point: Point, rotation: Int, isFree: (Int) -> Bool) -> (shift: Point, pairs: [(Int, Int)])? {
        guard spec.kind == .jigsaw else { return nil }
        let own = parts.part(of: grip)
        let snap = Self.snapUnits
        // (piece of ours, neighbour, how far the neighbour lies from its exact place)
        var found: [(a: Int, b: Int, off: Point)] = []
        for m in parts.pieces(with: grip) {
            let pm = self.point(of: m, grip: grip, at: point, rotation: rotation)
            for n in homeNeighbours(of: m) {
                if own != nil && parts.part(of: n) == own { continue }
                guard case .table(let q) = pieces[n].location, pieces[n].rotation == rotation, isFree(n) else { continue }
                let want = self.point(of: n, grip: m, at: pm, rotation: rotation)
                let off = Point(x: q.x - want.x, y: q.y - want.y)
                if abs(off.x) <= snap && abs(off.y) <= snap { found.append((m, n, off)) }
            }
        }
        guard let nearest = found.min(by: { ($0.off.x * $0.off.x + $0.off.y * $0.off.y, $0.a, $0.b) < ($1.off.x * $1.off.x + $1.off.y * $1.off.y, $1.a, $1.b) })
        else { return nil }
        let shift = nearest.off
        let snapped = Point(x: point.x + shift.x, y: point.y + shift.y)
        guard fitsOnTable(grip, at: snapped, rotation: rotation) else { return nil }
        var pairs = [(nearest.a, nearest.b)]
        var joined: Set<Int> = [parts.part(of: nearest.b) ?? nearest.b]
        for f in found.sorted(by: { ($0.a, $0.b) < ($1.a, $1.b) }) {
            let part = parts.part(of: f.b) ?? f.b
            guard !joined.contains(part) else { continue }
            // After the snap the other part lies `off - shift` from its place; it moves back by that.
            let dx = f.off.x - shift.x, dy = f.off.y - shift.y
            guard abs(dx) <= snap && abs(dy) <= snap else { continue }
            let corner = origin(of: f.b)
            guard fitsOnTable(f.b, at: Point(x: corner.x - dx, y: corner.y - dy), rotation: rotation) else { continue }
            joined.insert(part)
            pairs.append((f.a, f.b))
        }
        return (shift, pairs)
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
    ///
    /// `placement` `.own`: a jigsaw piece's only cell is its home cell, at
    /// rotation 0 (when it is among those nine). A part's target is the
    /// cell of the grabbed piece such that every piece of the part goes in.
    public func dropTarget(piece: Int, at point: Point, rotation: Int, placement: Placement = .shape) -> Cell? {
        switch spec.kind {
        case .swap:
            guard let cell = geometry.cell(under: point), pieces[piece].location != .board(cell) else { return nil }
            return cell
        case .jigsaw:
            let center = geometry.gridCell(under: point)
            if placement == .own {
                let home = homeCell(of: piece)
                guard rotation == 0, abs(home.row - center.row) <= 1, abs(home.col - center.col) <= 1,
                      partFits(piece: piece, rotation: 0, in: home, placement: .own) else { return nil }
                return home
            }
            if geometry.isOnBoard(center), partFits(piece: piece, rotation: rotation, in: center, placement: placement) { return center }
            var best: Cell?
            var bestDistance = Int.max
            for dr in -1...1 {
                for dc in -1...1 where dr != 0 || dc != 0 {
                    let c = Cell(row: center.row + dr, col: center.col + dc)
                    guard geometry.isOnBoard(c), partFits(piece: piece, rotation: rotation, in: c, placement: placement) else { continue }
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

    /// Whether `piece` and every piece joined to it go into the board with
    /// `piece` in `cell`, each beside it as in the picture: each cell on the
    /// board, and each piece fits its cell (`fits`; under `.own`, only its home cell).
    func partFits(piece: Int, rotation: Int, in cell: Cell, placement: Placement) -> Bool {
        for m in parts.pieces(with: piece) {
            let o = cellOffset(of: m, from: piece, rotation: rotation)
            let c = Cell(row: cell.row + o.dy, col: cell.col + o.dx)
            guard geometry.isOnBoard(c), placement == .shape || (c == homeCell(of: m) && rotation == 0),
                  fits(piece: m, rotation: rotation, in: c) else { return false }
        }
        return true
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
