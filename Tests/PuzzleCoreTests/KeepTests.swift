import Testing
@testable import PuzzleCore

/// KEEP (issue 16, spoiler 6): a holder who is there but not moving the piece
/// renews its lease, without an event and without moving it.
@Suite struct KeepTests {
    @Test func keepRenewsTheLeaseFromNow() throws {
        var room = try makeRoom(.jigsaw, lease: 1_000)
        try room.perform(.grab(piece: 2), by: alice, at: 0)
        var events: [RoomEvent] = []
        let outcome = try room.perform(.keep(piece: 2), by: alice, at: 600, into: &events)
        #expect(outcome == .kept(piece: 2, until: 1_600))
        #expect(room.nextExpiry == 1_600)
        room.expireLeases(at: 1_000, into: &events)
        #expect(events.isEmpty)
        #expect(room.holder(of: 2) == alice)
        room.expireLeases(at: 1_600, into: &events)
        #expect(events.map(\.body) == [.returned(piece: 2, by: alice, reason: .expired)])
    }

    @Test func keepMakesNoEventAndMovesNothing() throws {
        var room = try makeRoom(.jigsaw, lease: 1_000)
        try room.perform(.grab(piece: 2), by: alice, at: 0)
        try room.perform(.drag(piece: 2, to: Point(x: 3, y: 1)), by: alice, at: 10)
        let seq = room.seq, lock = room.locks[2]
        let events = try room.perform(.keep(piece: 2), by: alice, at: 500)
        #expect(events.isEmpty)
        #expect(room.seq == seq)
        #expect(room.locks[2]?.point == lock?.point && room.locks[2]?.target == lock?.target)
        #expect(room.locks[2]?.rotation == lock?.rotation)
    }

    /// `plan` changes nothing; the server applies the outcome once it answers.
    @Test func planChangesNothingAndApplyingTheOutcomeRenews() throws {
        var room = try makeRoom(.jigsaw, lease: 1_000)
        try room.perform(.grab(piece: 2), by: alice, at: 0)
        let before = room
        var events: [RoomEvent] = []
        let outcome = try room.plan(.keep(piece: 2), by: alice, at: 300, into: &events)
        #expect(room == before && events.isEmpty)
        room.apply(planned: events)
        room.apply(outcome)
        #expect(room.nextExpiry == 1_300)
    }

    @Test func onlyTheHolderMayKeep() throws {
        var room = try makeRoom(.jigsaw, lease: 1_000)
        try room.perform(.grab(piece: 2), by: alice, at: 0)
        let before = room
        #expect(throws: PuzzleError.notHolder(piece: 2)) { try room.perform(.keep(piece: 2), by: bob, at: 500) }
        #expect(throws: PuzzleError.notHolder(piece: 3)) { try room.perform(.keep(piece: 3), by: alice, at: 500) }
        #expect(room == before)
    }

    @Test func keepOfAnUnknownPieceIsRefused() throws {
        var room = try makeRoom(.jigsaw)
        #expect(throws: PuzzleError.unknownPiece(16)) { try room.perform(.keep(piece: 16), by: alice, at: 1) }
        #expect(throws: PuzzleError.unknownPiece(-1)) { try room.perform(.keep(piece: -1), by: alice, at: 1) }
    }

    /// A lapsed hold cannot be kept: KEEP does not take a piece back.
    @Test func anExpiredHoldCannotBeKept() throws {
        var room = try makeRoom(.jigsaw, lease: 1_000)
        try room.perform(.grab(piece: 2), by: alice, at: 0)
        var events: [RoomEvent] = []
        room.expireLeases(at: 1_000, into: &events)
        #expect(throws: PuzzleError.notHolder(piece: 2)) { try room.perform(.keep(piece: 2), by: alice, at: 1_001) }
    }

    @Test func theDefaultLeaseIsThirtySeconds() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3)
        #expect(RoomSettings(first: spec, seed: 1).leaseMillis == 30_000)
    }
}
