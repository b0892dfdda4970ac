import Testing
@testable import PuzzleCore

/// The rules clients and bots share with the server: which piece is free, and
/// which piece a request that names none means.
@Suite struct ChoosingTests {
    @Test func aHeldPieceIsNotFree() throws {
        var room = try makeRoom(.jigsaw)
        #expect(room.isFree(3))
        try room.perform(.grab(piece: 3), by: alice, at: 1)
        #expect(!room.isFree(3))
    }

    @Test func aPieceInItsHomeCellIsNotFree() throws {
        var room = try makeRoom(.jigsaw)
        try room.move(0, to: Cell(row: 0, col: 0))
        #expect(room.isCorrect(0))
        #expect(!room.isFree(0))
    }

    @Test func randomFreePieceFindsTheLastFreeOneAndThenNone() throws {
        var room = try makeRoom(.jigsaw, 2, 2)
        var rng = SeededGenerator(seed: 3)
        for p in 0..<3 { try room.move(p, to: room.homeCell(of: p)) }
        #expect(room.randomFreePiece(using: &rng, probes: 0) == 3)
        #expect(room.randomFreePiece(using: &rng, excluding: { $0 == 3 }) == nil)
    }

    @Test func randomFreePieceIsReproducibleFromTheSeed() throws {
        let room = try makeRoom(.jigsaw, 6, 6)
        var a = SeededGenerator(seed: 9), b = SeededGenerator(seed: 9)
        let first = (0..<10).map { _ in room.randomFreePiece(using: &a) }
        let second = (0..<10).map { _ in room.randomFreePiece(using: &b) }
        #expect(first == second)
        #expect(first.allSatisfy { $0.map(room.isFree) == true })
    }

    @Test func theImplicitPieceIsTheOnlyOneHeld() throws {
        var room = try makeRoom(.jigsaw, maxHeld: 2)
        #expect(room.implicitPiece(of: alice) == .noneHeld)
        try room.perform(.grab(piece: 5), by: alice, at: 1)
        #expect(room.implicitPiece(of: alice) == .piece(5))
        try room.perform(.grab(piece: 6), by: alice, at: 1)
        #expect(room.implicitPiece(of: alice) == .severalHeld)
        #expect(room.implicitPiece(of: bob) == .noneHeld)
    }

    @Test func theSoonestLapsingHoldIsTheOneLeastRecentlyRenewed() throws {
        var room = try makeRoom(.jigsaw, maxHeld: 2)
        #expect(room.soonestLapsingHold(of: alice) == nil)
        try room.perform(.grab(piece: 5), by: alice, at: 1)
        try room.perform(.grab(piece: 6), by: alice, at: 2)
        try room.perform(.grab(piece: 7), by: bob, at: 0)
        #expect(room.soonestLapsingHold(of: alice).map { [$0.piece, Int($0.expiresAt)] } == [5, 10_001])
        // A drag renews piece 5's lease: piece 6 now lapses first.
        try room.perform(.drag(piece: 5, to: Point(x: 0, y: 0)), by: alice, at: 3)
        #expect(room.soonestLapsingHold(of: alice).map { [$0.piece, Int($0.expiresAt)] } == [6, 10_002])
    }
}

/// Pointing at the table picks the piece drawn on top there.
@Suite struct TopPieceTests {
    @Test func aPlacedPieceIsPickedAnywhereInItsCell() throws {
        var room = try makeRoom(.jigsaw)
        try room.move(5, to: room.homeCell(of: 5))
        let o = room.geometry.origin(of: room.homeCell(of: 5))
        for dx in 0..<4 { for dy in 0..<4 { #expect(room.topPiece(at: Point(x: o.x + dx, y: o.y + dy)) == 5) } }
        #expect(room.topPiece(at: Point(x: o.x + 4, y: o.y)) != 5)
    }

    @Test func aLoosePieceLiesAboveAPlacedOneAndHeldAboveLoose() throws {
        var room = try makeRoom(.jigsaw, maxHeld: 2)
        try room.move(5, to: room.homeCell(of: 5))
        let o = room.geometry.origin(of: room.homeCell(of: 5))
        // Bob holds piece 9 half over cell 5.
        try room.perform(.grab(piece: 9), by: bob, at: 1)
        try room.perform(.drag(piece: 9, to: Point(x: o.x + 2, y: o.y + 2)), by: bob, at: 1)
        #expect(room.topPiece(at: Point(x: o.x + 3, y: o.y + 3)) == 9)
        #expect(room.topPiece(at: Point(x: o.x + 1, y: o.y + 1)) == 5)
    }

    @Test func theHigherNumberedLoosePieceIsOnTop() throws {
        let room = try makeRoom(.jigsaw)
        let p3 = room.position(of: 3)
        var overlapping: [Int] = []
        for p in 0..<room.pieceCount where room.position(of: p) == p3 { overlapping.append(p) }
        #expect(room.topPiece(at: p3) == overlapping.max())
        #expect(room.topPiece(at: Point(x: -1, y: -1)) == nil)
    }
}
