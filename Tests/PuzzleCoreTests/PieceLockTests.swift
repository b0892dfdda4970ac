import Testing
@testable import PuzzleCore

@Suite struct PieceLockTests {
    @Test func grabGivesExclusiveHoldAndRefusalNamesHolder() throws {
        var room = try makeRoom(.jigsaw)
        let events = try room.perform(.grab(piece: 3), by: alice, at: 5)
        #expect(events.map(\.body) == [.grabbed(piece: 3, by: alice)])
        #expect(room.holder(of: 3) == alice)
        #expect(throws: PuzzleError.heldBy(piece: 3, holder: alice)) { try room.perform(.grab(piece: 3), by: bob, at: 6) }
        #expect(PuzzleError.heldBy(piece: 3, holder: alice).message(name: { $0 == alice ? "alice" : "?" }) == "piece 3 is held by alice")
    }

    @Test func onlyHolderMayDragRotateDropOrRelease() throws {
        var room = try makeRoom(.jigsaw, rotation: true)
        try room.perform(.grab(piece: 3), by: alice, at: 1)
        let before = room
        #expect(throws: PuzzleError.notHolder(piece: 3)) { try room.perform(.drag(piece: 3, to: Point(x: 0, y: 0)), by: bob, at: 2) }
        #expect(throws: PuzzleError.notHolder(piece: 3)) { try room.perform(.rotate(piece: 3), by: bob, at: 2) }
        #expect(throws: PuzzleError.notHolder(piece: 3)) { try room.perform(.drop(piece: 3), by: bob, at: 2) }
        #expect(throws: PuzzleError.notHolder(piece: 3)) { try room.perform(.release(piece: 3), by: bob, at: 2) }
        #expect(room == before)
    }

    @Test func holdLimitIsARoomSetting() throws {
        var one = try makeRoom(.jigsaw)
        try one.perform(.grab(piece: 1), by: alice, at: 1)
        #expect(throws: PuzzleError.holdLimit(1)) { try one.perform(.grab(piece: 2), by: alice, at: 1) }
        var two = try makeRoom(.jigsaw, maxHeld: 2)
        try two.perform(.grab(piece: 1), by: alice, at: 1)
        try two.perform(.grab(piece: 2), by: alice, at: 1)
        #expect(throws: PuzzleError.holdLimit(2)) { try two.perform(.grab(piece: 4), by: alice, at: 1) }
    }

    @Test func leaseExpiresWithoutActivityAndActivityRenewsIt() throws {
        var room = try makeRoom(.jigsaw, lease: 1_000)
        let start = room.pieces[2]
        try room.perform(.grab(piece: 2), by: alice, at: 0)
        var events: [RoomEvent] = []
        room.expireLeases(at: 999, into: &events)
        #expect(events.isEmpty)
        try room.perform(.drag(piece: 2, to: Point(x: 1, y: 1)), by: alice, at: 900)
        room.expireLeases(at: 1_500, into: &events)
        #expect(events.isEmpty)
        #expect(room.nextExpiry == 1_900)
        room.expireLeases(at: 1_900, into: &events)
        #expect(events.map(\.body) == [.returned(piece: 2, by: alice, reason: .expired)])
        #expect(events.first?.body.name == "expired")
        #expect(room.holder(of: 2) == nil)
        #expect(room.pieces[2] == start)
        #expect(room.position(of: 2) == room.position(of: 2))
        #expect(room.players[alice]?.holding == [])
    }

    @Test func releaseAndLeavingPutThePieceBackWhereGrabbed() throws {
        var room = try makeRoom(.jigsaw, rotation: true)
        try room.move(5, to: Cell(row: 1, col: 1))
        #expect(room.pieces[5].location == .board(Cell(row: 1, col: 1)) || room.pieces[5].rotation != 0)
        let placed = room.pieces[5]
        try room.perform(.grab(piece: 5), by: bob, at: 2)
        try room.perform(.drag(piece: 5, to: Point(x: 0, y: 0)), by: bob, at: 2)
        try room.perform(.rotate(piece: 5), by: bob, at: 2)
        try room.perform(.release(piece: 5), by: bob, at: 3)
        #expect(room.pieces[5] == placed && room.holder(of: 5) == nil)
        #expect(room.position(of: 5) == (placed.location.cell.map { room.geometry.origin(of: $0) } ?? room.position(of: 5)))
        try room.perform(.grab(piece: 5), by: bob, at: 4)
        try room.perform(.drag(piece: 5, to: Point(x: 0, y: 0)), by: bob, at: 4)
        let events = try room.perform(.leave, by: bob, at: 5)
        #expect(events.map(\.body) == [.returned(piece: 5, by: bob, reason: .left), .left(bob)])
        #expect(room.pieces[5] == placed && room.locks.isEmpty)
    }

    @Test func liftedBoardPieceKeepsItsCellReserved() throws {
        var room = try makeRoom(.jigsaw)
        try room.move(5, to: Cell(row: 1, col: 1))
        try room.perform(.grab(piece: 5), by: alice, at: 2)
        try room.perform(.drag(piece: 5, to: Point(x: 0, y: 0)), by: alice, at: 2)
        #expect(!room.fits(piece: 6, rotation: 0, in: Cell(row: 1, col: 1)))
        #expect(room.occupant(of: Cell(row: 1, col: 1)) == 5)
    }
}
