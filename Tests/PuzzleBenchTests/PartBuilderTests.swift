import PuzzleCore
import Testing
@testable import PuzzleBench

/// `--play parts` decided on a room alone (no network): where a bot takes
/// what it grabs, so that parts form and then go into the board.
@Suite struct PartBuilderTests {
    let alice = PlayerID(1), bob = PlayerID(2)

    func room(_ size: Int = 6) throws -> RoomState {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: size, cols: size)
        var r = RoomState(settings: RoomSettings(first: spec, leaseMillis: 1 << 40, seed: 3))
        try r.perform(.join(name: "alice"), by: alice, at: 0)
        try r.perform(.join(name: "bob"), by: bob, at: 0)
        return r
    }

    /// Pieces 7 and 8 of a 6x6 joined at the table's top edge, far from
    /// their cells (so no drop there goes into the board).
    func roomWithAPart() throws -> RoomState {
        var r = try room()
        for (piece, x) in [(8, 8), (7, 4)] {
            try r.perform(.grab(piece: piece), by: alice, at: 1)
            try r.perform(.drag(piece: piece, to: Point(x: x, y: 0)), by: alice, at: 1)
            try r.perform(.drop(piece: piece), by: alice, at: 1)
        }
        try #require(r.parts.pieces(with: 7) == [7, 8])
        return r
    }

    /// One player plays a whole puzzle as the bots do: parts form (drops
    /// beside a neighbour join it), grow up to the carry size and go into
    /// the board whole, and the puzzle is solved.
    @Test func aPuzzlePlayedThisWayBuildsPartsAndCarriesThemIn() throws {
        var r = try room(8)
        var rng = SeededGenerator(seed: 11)
        let builder = PartBuilder(carrySize: 5)
        var merges = 0, partsIn = 0, joinsMeant = 0, cycles = 0
        while !r.isSolved {
            cycles += 1
            try #require(cycles < 1000, "not solved after 1000 grabs")
            let piece = try #require(PartBuilder.choosePiece(in: r, using: &rng, claimed: { _ in false }))
            try r.perform(.grab(piece: piece), by: alice, at: 1)
            let size = r.parts.size(with: piece)
            let d = builder.destination(of: piece, in: r, using: &rng, claimed: { _ in false })
            if size >= 5 { #expect(d.joining == nil) }
            if let n = d.joining {
                joinsMeant += 1
                // Within the snap distance of the place where it joins `n`.
                let exact = r.board.point(of: piece, grip: n, at: r.board.origin(of: n), rotation: 0)
                #expect(abs(d.point.x - exact.x) <= PieceBoard.snapUnits && abs(d.point.y - exact.y) <= PieceBoard.snapUnits)
            } else {
                #expect(d.point == r.geometry.origin(of: r.homeCell(of: piece)))
            }
            try r.perform(.drag(piece: piece, to: d.point), by: alice, at: 1)
            for e in try r.perform(.drop(piece: piece), by: alice, at: 1) {
                switch e.body {
                case .merged: merges += 1
                case .placed(_, _, .board(_), _) where size > 1: partsIn += 1
                default: break
                }
            }
            if d.joining == nil { #expect(r.isCorrect(piece)) }
        }
        #expect(joinsMeant > 0 && merges >= joinsMeant / 2, "\(merges) merges of \(joinsMeant) meant")
        #expect(partsIn > 0)
        #expect(r.parts.isEmpty)
    }

    /// A part someone else holds is never chosen, nor joined; nor is a
    /// part another bot has claimed.
    @Test func partsHeldOrClaimedAreLeftAlone() throws {
        var r = try roomWithAPart()
        try r.perform(.grab(piece: 8), by: bob, at: 2)
        #expect(r.holder(of: 7) == bob)
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<500 {
            let p = try #require(PartBuilder.choosePiece(in: r, using: &rng, claimed: { _ in false }))
            #expect(p != 7 && p != 8)
        }
        try r.perform(.grab(piece: 6), by: alice, at: 2)
        let builder = PartBuilder(carrySize: 8)
        var joined = Set<Int?>()
        for _ in 0..<200 { joined.insert(builder.destination(of: 6, in: r, using: &rng, claimed: { _ in false }).joining) }
        // Piece 6's neighbours are 0, 7 and 12; 7's part is held.
        #expect(joined == [0, 12])
        joined = []
        for _ in 0..<200 { joined.insert(builder.destination(of: 6, in: r, using: &rng, claimed: { $0 == 0 }).joining) }
        #expect(joined == [12])
        // A claim on a part covers every piece of it.
        try r.perform(.release(piece: 8), by: bob, at: 3)
        #expect(PartBuilder.claimKey(of: 8, in: r) == 7)
        for _ in 0..<500 {
            let p = try #require(PartBuilder.choosePiece(in: r, using: &rng, claimed: { $0 == 7 }))
            #expect(p != 7 && p != 8)
        }
    }

    @Test func aPartOfTheCarrySizeGoesHome() throws {
        var r = try roomWithAPart()
        try r.perform(.grab(piece: 8), by: alice, at: 2)
        var rng = SeededGenerator(seed: 1)
        let d = PartBuilder(carrySize: 2).destination(of: 8, in: r, using: &rng, claimed: { _ in false })
        #expect(d == PartBuilder.Destination(point: r.geometry.origin(of: r.homeCell(of: 8)), joining: nil))
        try r.perform(.drag(piece: 8, to: d.point), by: alice, at: 2)
        try r.perform(.drop(piece: 8), by: alice, at: 2)
        #expect(r.isCorrect(7) && r.isCorrect(8) && r.parts.isEmpty)
    }
}
