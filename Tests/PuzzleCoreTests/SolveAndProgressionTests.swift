import Testing
@testable import PuzzleCore

/// Solves the current puzzle by moving every piece home in order.
func solve(_ room: inout RoomState, by player: PlayerID = alice, at time: Int64 = 10) throws -> [RoomEvent] {
    var all: [RoomEvent] = []
    for piece in 0..<room.pieceCount where !room.isCorrect(piece) {
        try room.perform(.grab(piece: piece), by: player, at: time)
        while room.displayRotation(of: piece) != 0 { try room.perform(.rotate(piece: piece), by: player, at: time) }
        try room.perform(.drag(piece: piece, to: room.geometry.origin(of: room.homeCell(of: piece))), by: player, at: time)
        all += try room.perform(.drop(piece: piece), by: player, at: time)
    }
    return all
}

@Suite struct SolveAndProgressionTests {
    @Test func swapSolvedWhenEveryTileIsHome() throws {
        var room = try makeRoom(.swap, 3, 3)
        let events = try solve(&room, at: 7_000)
        #expect(events.last?.body == .solved(puzzle: 0, elapsedMillis: 7_000))
        #expect(events.filter { if case .solved = $0.body { return true } else { return false } }.count == 1)
        #expect(room.isSolved && room.progress(at: 9_000).solveMillis == 7_000 && room.progress(at: 9_000).percent == 100)
    }

    @Test func jigsawSolvedWhenEveryPieceIsHomeAtRotationZero() throws {
        var room = try makeRoom(.jigsaw, 3, 3, rotation: true)
        let events = try solve(&room)
        #expect(events.last.map { if case .solved = $0.body { return true } else { return false } } == true)
        #expect(room.correctCount == 9)
        #expect(throws: PuzzleError.alreadySolved) { try room.perform(.grab(piece: 0), by: alice, at: 11) }
    }

    @Test func progressCountsCorrectPiecesAndMoves() throws {
        var room = try makeRoom(.jigsaw, 3, 3)
        #expect(room.progress(at: 0).correct == 0)
        try room.move(0, to: Cell(row: 0, col: 0), by: bob, at: 500)
        let p = room.progress(at: 1_500)
        #expect(p.correct == 1 && p.total == 9 && p.movesByPlayer[bob] == 1 && p.movesByPlayer[alice] == 0 && p.elapsedMillis == 1_500)
    }

    @Test func nextPuzzleOnlyAfterSolveAndIsHarder() throws {
        var room = try makeRoom(.swap, 2, 2)
        #expect(throws: PuzzleError.notSolved) { try room.perform(.next, by: bob, at: 1) }
        _ = try solve(&room)
        let events = try room.perform(.next, by: bob, at: 20)
        #expect(events.map(\.body) == [.nextPuzzle(puzzle: 1, spec: try PuzzleSpec(kind: .swap, rows: 3, cols: 3))])
        #expect(room.pieceCount == 9 && !room.isSolved && room.correctCount < 9 && room.elapsed(at: 20) == 0 && room.elapsed(at: 25) == 5)
        #expect(room.checkInvariants())
        #expect(try PuzzleSpec(kind: .jigsaw, rows: 100, cols: 99).next().rows == 100)
    }

    /// The sequence grows one row and one column a puzzle until a side reaches
    /// the largest size, which it then keeps; it never goes past it.
    @Test func puzzleSequenceStopsGrowingAtTheLargestSize() throws {
        let largest = PuzzleSpec.sizeRange.upperBound
        for kind in PuzzleKind.allCases {
            var spec = try PuzzleSpec(kind: kind, rows: 2, cols: 60, rotation: true, picture: "waves")
            for _ in 0..<(2 * largest) {
                let next = spec.next()
                #expect(next.rows == min(spec.rows + 1, largest) && next.cols == min(spec.cols + 1, largest))
                #expect(next.kind == kind && next.rotation == spec.rotation && next.picture == "waves")
                #expect(throws: Never.self) { try PuzzleSpec(kind: next.kind, rows: next.rows, cols: next.cols) }
                spec = next
            }
            #expect(spec.rows == largest && spec.cols == largest && spec.next() == spec)
        }
    }

    @Test func hintOncePerPlayerPerPuzzle() throws {
        var room = try makeRoom(.swap, 2, 2)
        let events = try room.perform(.hint, by: alice, at: 100)
        #expect(events.map(\.body) == [.hint(by: alice, untilMillis: 2_100)])
        #expect(throws: PuzzleError.hintUsed) { try room.perform(.hint, by: alice, at: 200) }
        try room.perform(.hint, by: bob, at: 200)
        _ = try solve(&room)
        try room.perform(.next, by: alice, at: 300)
        try room.perform(.hint, by: alice, at: 400)
    }
}
