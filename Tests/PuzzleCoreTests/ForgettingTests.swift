import Testing
@testable import PuzzleCore

/// A room forgets players absent too long (issue 20, "nothing grows without
/// bound"): their record goes, their moves stay in the room's totals. One
/// test per rule.
@Suite struct ForgettingTests {
    @Test func anAbsentPlayerIsForgottenAndItsMovesStayInTheRoomsTotals() throws {
        var room = try makeRoom(.jigsaw, 3, 3)
        try room.move(0, to: Cell(row: 0, col: 0), by: alice, at: 10)
        try room.perform(.leave, by: alice, at: 20)
        let (moves, totals) = (room.roomMoves, room.roomTotalMoves)
        var events: [RoomEvent] = []
        room.planForgetting([alice], at: 30, into: &events)
        #expect(events == [RoomEvent(seq: room.seq + 1, time: 30, body: .forgotten(alice))])
        #expect(room.absent[alice] != nil, "planning changes nothing")
        room.apply(planned: events)
        #expect(room.absent[alice] == nil && room.playerRecord(alice) == nil)
        #expect(room.roomMoves == moves && room.roomTotalMoves == totals && moves == 1)
    }

    @Test func aPresentPlayerIsNotForgotten() throws {
        var room = try makeRoom(.jigsaw, 3, 3)
        var events: [RoomEvent] = []
        room.planForgetting([alice, bob], at: 30, into: &events)
        #expect(events.isEmpty)
        // An event naming a present player (a replay of a stale record) changes nothing but the seq.
        let before = room.players
        try room.apply(RoomEvent(seq: room.seq + 1, time: 40, body: .forgotten(bob)))
        #expect(room.players == before)
    }

    @Test func forgottenMovesLeaveThePuzzlesCountOnTheNextPuzzleButStayInTheSequencesTotal() throws {
        var room = try makeRoom(.swap, 2, 2)
        try room.perform(.grab(piece: 0), by: alice, at: 1)
        try room.perform(.drag(piece: 0, to: room.geometry.origin(of: Cell(row: 1, col: 1))), by: alice, at: 1)
        try room.perform(.drop(piece: 0), by: alice, at: 1)
        try room.perform(.leave, by: alice, at: 2)
        var events: [RoomEvent] = []
        room.planForgetting([alice], at: 3, into: &events)
        room.apply(planned: events)
        #expect(room.formerMoves == 1 && room.formerTotalMoves == 1)
        _ = try solve(&room, by: bob, at: 4)
        let total = room.roomTotalMoves
        try room.perform(.next, by: bob, at: 5)
        #expect(room.formerMoves == 0 && room.roomTotalMoves == total)
    }

    @Test func aSnapshotKeepsTheForgottenCounts() throws {
        var room = try makeRoom(.jigsaw, 3, 3)
        try room.move(0, to: Cell(row: 0, col: 0), by: alice, at: 10)
        try room.perform(.leave, by: alice, at: 20)
        var events: [RoomEvent] = []
        room.planForgetting([alice], at: 30, into: &events)
        room.apply(planned: events)
        let copy = try RoomState(settings: room.settings, puzzleIndex: room.puzzleIndex, spec: room.spec, pieces: room.pieces,
                                 locks: room.locks, players: room.players, absent: room.absent,
                                 former: (room.formerMoves, room.formerTotalMoves), seq: room.seq,
                                 elapsed: 0, clockRunning: false, solveMillis: nil, now: 0)
        #expect(copy.roomMoves == room.roomMoves && copy.roomTotalMoves == room.roomTotalMoves)
    }
}
