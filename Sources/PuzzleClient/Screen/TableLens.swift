import PuzzleCore

/// What one player chooses to see on the table, in their own view only (the
/// room and the other players see nothing of it): a filter that hides or dims
/// pieces, the box lid (the whole picture in a window), and a piece marked by
/// `/find`.
public struct TableLens: Hashable, Sendable {
    /// Which pieces stand out.
    public enum Filter: String, Hashable, Sendable {
        /// Every piece as it is.
        case all
        /// Edge pieces (whose home cell is on the board's border): other loose
        /// pieces are hidden, other placed ones dimmed.
        case edges
        /// Loose pieces (on the table, not on the board): placed ones dimmed.
        case loose
    }

    public var filter: Filter
    /// The lid's size step: 0 closed, then 1 (small) to `lidSteps` (the whole view).
    public var lid: Int
    /// The piece `/find` marked, until it is placed or the mark is cleared.
    public var found: Int?

    public static let lidSteps = 3

    public init(filter: Filter = .all, lid: Int = 0, found: Int? = nil) {
        self.filter = filter
        self.lid = lid
        self.found = found
    }

    public var lidOpen: Bool { lid > 0 }

    /// Whether a piece's home cell is on the board's border (a jigsaw piece
    /// with a flat side, a swap tile of the picture's edge).
    static func isEdge(_ piece: Int, in st: RoomState) -> Bool {
        let home = st.homeCell(of: piece)
        return home.row == 0 || home.col == 0 || home.row == st.spec.rows - 1 || home.col == st.spec.cols - 1
    }

    /// Whether a piece lying on the table is drawn (the filter hides the
    /// others; a held piece is always drawn: it is in someone's hand).
    /// The piece `/find` marked is drawn whatever the filter. A part (pieces
    /// joined on the table) is drawn whole or not at all: whole when one of
    /// its pieces is an edge piece (its home box touches the border: O(1)) or
    /// the one marked.
    func showsLoose(_ piece: Int, in st: RoomState) -> Bool {
        guard filter == .edges else { return true }
        guard let part = st.parts.part(of: piece) else { return piece == found || Self.isEdge(piece, in: st) }
        let box = st.parts.box(with: piece, cols: st.spec.cols)
        if box.minRow == 0 || box.minCol == 0 || box.maxRow == st.spec.rows - 1 || box.maxCol == st.spec.cols - 1 { return true }
        guard let found, found >= 0, found < st.pieceCount else { return false }
        return st.parts.part(of: found) == part
    }

    /// Whether a piece placed on the board is drawn dimmed.
    func dimsPlaced(_ piece: Int, in st: RoomState) -> Bool {
        switch filter {
        case .all: return false
        case .edges: return !Self.isEdge(piece, in: st)
        case .loose: return true
        }
    }

    /// The piece the pointer takes at a table point: the one drawn on top
    /// there among the pieces this view shows, so a press never takes a
    /// hidden one. Held pieces and parts lie above loose ones (the higher
    /// grip above), each piece of a held part where its hold carries it;
    /// loose ones above placed ones, stacked as `stack` says, a part at its
    /// height (as `TableCanvas.drawLoosePieces` draws them).
    /// O(pieces); called per click, not per frame.
    func topPiece(at point: Point, in st: RoomState, stack: TableStack = TableStack()) -> Int? {
        let unit = st.geometry.unit
        func covers(_ p: Point) -> Bool { point.x >= p.x && point.x < p.x + unit && point.y >= p.y && point.y < p.y + unit }
        var held: (grip: Int, piece: Int)?
        for (grip, lock) in st.locks {
            guard let m = st.member(of: grip, at: point, corner: lock.point, rotation: lock.rotation) else { continue }
            if held.map({ grip > $0.grip }) ?? true { held = (grip, m) }
        }
        if let held { return held.piece }
        var top: (key: Int, piece: Int)?
        let height = stack.heights(in: st)
        for piece in 0..<st.pieceCount {
            guard case .table(let p) = st.pieces[piece].location, covers(p), st.grip(of: piece) == nil, showsLoose(piece, in: st) else { continue }
            let key = height(piece)
            if top.map({ key >= $0.key }) ?? true { top = (key, piece) }
        }
        if let top { return top.piece }
        guard let cell = st.geometry.cell(under: Point(x: point.x - unit / 2, y: point.y - unit / 2)),
              let placed = st.occupant(of: cell), st.locks[placed] == nil else { return nil }
        return placed
    }

    /// What `/loose` and `/edges` count: the loose pieces on the table (the
    /// edge pieces only, with `edgesOnly`), those in parts and how many parts,
    /// as "; 37 loose, 12 of them in 3 parts"; a part with an edge piece
    /// shows whole under `/edges`, said when there is one.
    static func looseCount(_ st: RoomState, edgesOnly: Bool) -> String {
        var loose = 0, joined = 0
        var parts = Set<Int>()
        for piece in 0..<st.pieceCount {
            guard case .table = st.pieces[piece].location, !edgesOnly || isEdge(piece, in: st) else { continue }
            loose += 1
            if let part = st.parts.part(of: piece) {
                joined += 1
                parts.insert(part)
            }
        }
        let what = edgesOnly ? "edge piece\(loose == 1 ? "" : "s") loose" : "loose"
        guard joined > 0 else { return "; \(loose) \(what)" }
        let tail = edgesOnly ? " (a part with an edge piece shows whole)" : ""
        return "; \(loose) \(what), \(joined) of them in \(parts.count) part\(parts.count == 1 ? "" : "s")\(tail)"
    }

    /// The `/find` mark shows while its piece is not on the board.
    func marksFound(in st: RoomState) -> Int? {
        guard let found, found >= 0, found < st.pieceCount, st.pieces[found].location.cell == nil || st.locks[found] != nil else { return nil }
        return found
    }

    /// Applies a command and says what changed (or why nothing did: an error).
    /// `lidAllowed`: whether the room offers the lid; `st`: the room, for `/find`.
    public mutating func apply(_ command: LensCommand, lidAllowed: Bool, in st: RoomState?) -> (text: String, isError: Bool) {
        switch command {
        case .filter(let f):
            filter = f
            switch f {
            case .all: return ("showing every piece", false)
            case .edges: return ("showing edge pieces only: the others on the table are hidden, placed ones dimmed (/all shows every piece)"
                                 + (st.map { Self.looseCount($0, edgesOnly: true) } ?? ""), false)
            case .loose: return ("showing loose pieces: placed ones dimmed (/all shows every piece)"
                                 + (st.map { Self.looseCount($0, edgesOnly: false) } ?? ""), false)
            }
        case .find(nil):
            found = nil
            return ("find mark cleared", false)
        case .find(let piece?):
            guard let st else { return ("not in a room yet", true) }
            guard piece < st.pieceCount else { return ("no piece \(piece) here: pieces are 0 to \(st.pieceCount - 1)", true) }
            if st.locks[piece] == nil, case .board(let cell) = st.pieces[piece].location {
                found = nil
                return ("piece \(piece) is on the board at row \(cell.row), column \(cell.col)", false)
            }
            found = piece
            let size = st.partSize(of: piece)
            let part = size > 1 ? ", in a part of \(size) pieces" : ""
            return ("piece \(piece) marked in yellow\(part) (/find clears the mark)", false)
        case .lid(let step):
            guard lidAllowed else {
                lid = 0
                return ("this room shows the picture only through /hint (once a puzzle)", true)
            }
            let was = lid
            switch step {
            case .toggle: lid = lid > 0 ? 0 : 1
            case .bigger: lid = min(Self.lidSteps, lid + 1)
            case .smaller: lid = max(0, lid - 1)
            }
            if lid == 0 { return ("lid closed", false) }
            if was == 0 { return ("lid open: the whole picture (/lid bigger|smaller or the wheel over it sizes it; Ctrl-P or /lid closes it)", false) }
            return ("lid size \(lid) of \(Self.lidSteps)", false)
        }
    }
}
