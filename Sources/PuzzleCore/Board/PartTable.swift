/// The parts of a jigsaw: pieces joined on the table, each part moving as
/// one. A part is named by its lowest piece (its id); a piece in no part is
/// a part of one and has no entry. Members are kept sorted, with the box of
/// home cells they cover (for checking in O(1) that a part fits on the table).
///
/// Joining two parts costs O(size of both); every lookup is O(1).
public struct PartTable: Hashable, Sendable {
    /// The box of home cells a part's pieces cover: rows and columns, inclusive.
    public struct HomeBox: Hashable, Sendable {
        public var minRow: Int, minCol: Int, maxRow: Int, maxCol: Int

        func union(_ o: HomeBox) -> HomeBox {
            HomeBox(minRow: min(minRow, o.minRow), minCol: min(minCol, o.minCol),
                    maxRow: max(maxRow, o.maxRow), maxCol: max(maxCol, o.maxCol))
        }
    }

    /// Part id of each piece, or -1 for a piece in no part.
    private var partOf: [Int32]
    /// Each part's pieces, sorted, by part id.
    public private(set) var members: [Int: [Int]]
    /// Each part's home box, by part id.
    public private(set) var boxes: [Int: HomeBox]

    /// No parts among `count` pieces.
    public init(count: Int) {
        partOf = [Int32](repeating: -1, count: count)
        members = [:]
        boxes = [:]
    }

    public var isEmpty: Bool { members.isEmpty }

    /// The part `piece` is in, if any.
    public func part(of piece: Int) -> Int? {
        let p = partOf[piece]
        return p < 0 ? nil : Int(p)
    }

    /// The pieces that move with `piece`: its part's, or itself alone.
    public func pieces(with piece: Int) -> [Int] {
        guard let id = part(of: piece) else { return [piece] }
        return members[id]!
    }

    /// How many pieces move with `piece`.
    public func size(with piece: Int) -> Int {
        guard let id = part(of: piece) else { return 1 }
        return members[id]!.count
    }

    /// The home box of the pieces that move with `piece`; `cols` is the puzzle's width.
    public func box(with piece: Int, cols: Int) -> HomeBox {
        if let id = part(of: piece) { return boxes[id]! }
        return HomeBox(minRow: piece / cols, minCol: piece % cols, maxRow: piece / cols, maxCol: piece % cols)
    }

    /// Joins the part of `a` with the part of `b` (two different parts) and
    /// returns the joined part's id (the lower of the two).
    @discardableResult
    public mutating func join(_ a: Int, _ b: Int, cols: Int) -> Int {
        let one = pieces(with: a), two = pieces(with: b)
        let box = self.box(with: a, cols: cols).union(self.box(with: b, cols: cols))
        if let id = part(of: a) { members[id] = nil; boxes[id] = nil }
        if let id = part(of: b) { members[id] = nil; boxes[id] = nil }
        var joined: [Int] = []
        joined.reserveCapacity(one.count + two.count)
        var i = 0, j = 0
        while i < one.count || j < two.count {
            if j == two.count || (i < one.count && one[i] < two[j]) { joined.append(one[i]); i += 1 }
            else { joined.append(two[j]); j += 1 }
        }
        let id = joined[0]
        for piece in joined { partOf[piece] = Int32(id) }
        members[id] = joined
        boxes[id] = box
        return id
    }

    /// Records a part read back from a snapshot: `members` sorted, in no part
    /// yet, already checked to be one sound shape (`PieceBoard`).
    mutating func adopt(_ members: [Int], box: HomeBox) {
        let id = members[0]
        for p in members { partOf[p] = Int32(id) }
        self.members[id] = members
        boxes[id] = box
    }

    /// Takes apart the part `piece` is in: its pieces are each on their own.
    public mutating func dissolve(with piece: Int) {
        guard let id = part(of: piece) else { return }
        for p in members[id]! { partOf[p] = -1 }
        members[id] = nil
        boxes[id] = nil
    }
}
