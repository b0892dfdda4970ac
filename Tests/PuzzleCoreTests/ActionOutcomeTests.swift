import Testing
@testable import PuzzleCore

/// The core says what each accepted action did; servers answer from it.
@Suite struct ActionOutcomeTests {
    @Test func aJigsawDropIntoAFittingCellIsPlaced() throws {
        var room = try makeRoom(.jigsaw)
        try room.perform(.grab(piece: 0), by: alice, at: 1)
        try room.perform(.drag(piece: 0, to: room.geometry.origin(of: Cell(row: 0, col: 0))), by: alice, at: 1)
        var events: [RoomEvent] = []
        #expect(try room.perform(.drop(piece: 0), by: alice, at: 2, into: &events) == .dropped(piece: 0, .placed(Cell(row: 0, col: 0)), solved: false, moved: true))
    }

    @Test func aJigsawDropWithNoTargetStaysOnTheTable() throws {
        var room = try makeRoom(.jigsaw)
        try room.perform(.grab(piece: 0), by: alice, at: 1)
        try room.perform(.drag(piece: 0, to: Point(x: 0, y: 0)), by: alice, at: 1)
        var events: [RoomEvent] = []
        #expect(try room.perform(.drop(piece: 0), by: alice, at: 2, into: &events) == .dropped(piece: 0, .onTable(Point(x: 0, y: 0)), solved: false, moved: true))
    }

    @Test func aSwapDropNamesTheCellTheTileMovedInto() throws {
        var room = try makeRoom(.swap, 2, 2)
        let piece = room.occupant(of: Cell(row: 0, col: 0))!
        try room.perform(.grab(piece: piece), by: alice, at: 1)
        try room.perform(.drag(piece: piece, to: room.geometry.origin(of: Cell(row: 1, col: 1))), by: alice, at: 1)
        var events: [RoomEvent] = []
        let outcome = try room.perform(.drop(piece: piece), by: alice, at: 2, into: &events)
        guard case .dropped(piece, .swapped(Cell(row: 1, col: 1)), let solved, moved: true) = outcome else {
            Issue.record("not a swap into 1,1: \(outcome)")
            return
        }
        #expect(solved == room.isSolved)
        #expect(room.pieces[piece].location == .board(Cell(row: 1, col: 1)))
    }

    @Test func theLastRightDropSolves() throws {
        var room = try makeRoom(.jigsaw, 2, 2)
        for p in 0..<3 { try room.move(p, to: room.homeCell(of: p)) }
        try room.perform(.grab(piece: 3), by: alice, at: 1)
        try room.perform(.drag(piece: 3, to: room.geometry.origin(of: room.homeCell(of: 3))), by: alice, at: 1)
        var events: [RoomEvent] = []
        #expect(try room.perform(.drop(piece: 3), by: alice, at: 2, into: &events) == .dropped(piece: 3, .placed(room.homeCell(of: 3)), solved: true, moved: true))
        #expect(room.isSolved)
    }

    @Test func otherActionsSayWhatTheyDid() throws {
        var room = try makeRoom(.jigsaw, rotation: true)
        var events: [RoomEvent] = []
        #expect(try room.perform(.grab(piece: 2), by: alice, at: 1, into: &events) == .grabbed(piece: 2))
        #expect(try room.perform(.rotate(piece: 2), by: alice, at: 1, into: &events) == .rotated(piece: 2, rotation: room.locks[2]!.rotation, target: room.locks[2]!.target))
        #expect(try room.perform(.release(piece: 2), by: alice, at: 1, into: &events) == .released(piece: 2))
        #expect(try room.perform(.hint, by: alice, at: 10, into: &events) == .hint(millis: room.settings.hintMillis, until: 10 + room.settings.hintMillis))
    }
}
