import Testing
@testable import PuzzleCore

/// The starting table: every loose piece apart from every other, on the table,
/// clear of the board, for every board size.
@Suite struct TableLayoutTests {
    /// Checks one starting layout; returns a description of the first fault.
    static func fault(kind: PuzzleKind, rows: Int, cols: Int, seed: UInt64) throws -> String? {
        let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols)
        let room = RoomState(settings: RoomSettings(first: spec, seed: seed))
        let g = room.geometry
        let u = g.unit
        let o = g.boardOrigin
        var points: [Point] = []
        for (i, piece) in room.pieces.enumerated() {
            guard case .table(let p) = piece.location else {
                if kind == .jigsaw { return "piece \(i) starts on the board" }
                continue
            }
            if kind == .swap { return "swap piece \(i) on the table" }
            guard g.contains(p) else { return "piece \(i) at \(p) is off the table" }
            let overBoard = p.x + u > o.x && p.x < o.x + cols * u && p.y + u > o.y && p.y < o.y + rows * u
            if overBoard { return "piece \(i) at \(p) lies over the board" }
            points.append(p)
        }
        // No two overlap: each covers [x, x+4) × [y, y+4); bucket by 4-unit grid.
        var seen: [Point: Point] = [:]
        for p in points {
            for dx in [0, u - 1] {
                for dy in [0, u - 1] {
                    // Any two overlapping squares of side 4 share a 4-grid cell of one of these corners.
                    let key = Point(x: (p.x + dx) / u, y: (p.y + dy) / u)
                    if let other = seen[key], other != p,
                       abs(other.x - p.x) < u, abs(other.y - p.y) < u { return "pieces at \(p) and \(other) overlap" }
                    seen[key] = p
                }
            }
        }
        if Set(points).count != points.count { return "two pieces share a point" }
        return nil
    }

    @Test(arguments: PuzzleKind.allCases)
    func noPieceStartsUnderAnotherAtAnySize(kind: PuzzleKind) throws {
        var faults: [String] = []
        for n in 2...100 {
            // Square boards, and lopsided ones both ways.
            for (r, c) in [(n, n), (n, max(2, n / 3)), (max(2, n / 3), n), (2, n), (n, 2)] {
                if let f = try Self.fault(kind: kind, rows: r, cols: c, seed: UInt64(n)) { faults.append("\(r)x\(c): \(f)") }
            }
        }
        #expect(faults.isEmpty, "\(faults.prefix(5))")
    }

    @Test func theOverlapCheckCatchesOverlaps() {
        // The bucket check above must see two pieces 3 units apart diagonally.
        let a = Point(x: 7, y: 7), b = Point(x: 10, y: 10)
        var seen: [Point: Point] = [:]
        var found = false
        for p in [a, b] {
            for dx in [0, 3] { for dy in [0, 3] {
                let key = Point(x: (p.x + dx) / 4, y: (p.y + dy) / 4)
                if let other = seen[key], other != p, abs(other.x - p.x) < 4, abs(other.y - p.y) < 4 { found = true }
                seen[key] = p
            } }
        }
        #expect(found)
    }

    @Test func slotsAreOneUnitApartAndClearOfTheBoard() {
        let g = TableGeometry.jigsaw(rows: 10, cols: 10)
        let slots = TableSlots.slots(in: g)
        #expect(slots.count == TableSlots.count(in: g))
        #expect(slots.count >= 100)
        for s in slots {
            #expect(s.x % TableSlots.pitch == 0 && s.y % TableSlots.pitch == 0)
        }
        // The first slots dealt touch the board's surroundings: one unit away.
        let o = g.boardOrigin
        let first = slots[0]
        let gapX = first.x + 4 <= o.x ? o.x - first.x - 4 : first.x - (o.x + 40)
        let gapY = first.y + 4 <= o.y ? o.y - first.y - 4 : first.y - (o.y + 40)
        #expect(max(gapX, gapY) <= TableSlots.pitch)
    }

    @Test func theTableIsWiderThanTallAndNoBiggerThanNeeded() {
        // 10x10: fits a 120x40 terminal's view at a cell of 4x4 half-block pixels.
        let g = TableGeometry.jigsaw(rows: 10, cols: 10)
        #expect(g.width / g.unit * 4 <= 95 && g.height / g.unit * 4 <= 56, "\(g)")
        #expect(g.width > g.height)
        // 100x100 stays within the protocol's coordinate range.
        let big = TableGeometry.jigsaw(rows: 100, cols: 100)
        #expect(big.width < 2000 && big.height < 2000, "\(big)")
    }

    @Test func theLayoutFollowsTheSeed() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 6, cols: 6)
        let a = RoomState(settings: RoomSettings(first: spec, seed: 5))
        let b = RoomState(settings: RoomSettings(first: spec, seed: 5))
        let c = RoomState(settings: RoomSettings(first: spec, seed: 6))
        #expect(a.pieces == b.pieces)
        #expect(a.pieces != c.pieces)
        #expect(Set(a.pieces.map(\.location)) == Set(c.pieces.map(\.location)))
    }
}
