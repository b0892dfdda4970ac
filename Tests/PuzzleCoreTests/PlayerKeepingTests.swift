import Testing
@testable import PuzzleCore

/// A player is a person: counters survive leaving and coming back, and the
/// puzzle clock counts play time only (issue 10). One test per rule.
@Suite struct PlayerKeepingTests {
    @Test func comingBackKeepsHintUsedAndMoves() throws {
        var room = try makeRoom(.jigsaw, 3, 3)
        try room.perform(.hint, by: alice, at: 10)
        try room.move(0, to: Cell(row: 0, col: 0), by: alice, at: 20)
        try room.perform(.leave, by: alice, at: 30)
        #expect(room.players[alice] == nil && room.absent[alice]?.moves == 1)
        try room.perform(.join(name: "alice"), by: alice, at: 40)
        #expect(room.players[alice]?.moves == 1 && room.absent[alice] == nil)
        #expect(throws: PuzzleError.hintUsed) { try room.perform(.hint, by: alice, at: 50) }
    }

    @Test func clockStartsWithTheFirstPlayerAndPausesWhileEmpty() throws {
        var room = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), seed: 1))
        #expect(room.elapsed(at: 5_000) == 0 && !room.clockIsRunning)
        try room.perform(.join(name: "alice"), by: alice, at: 5_000)
        #expect(room.elapsed(at: 6_000) == 1_000)
        try room.perform(.leave, by: alice, at: 7_000)
        #expect(room.elapsed(at: 60_000) == 2_000 && !room.clockIsRunning)
        try room.perform(.join(name: "alice"), by: alice, at: 70_000)
        #expect(room.elapsed(at: 70_500) == 2_500)
    }

    @Test func solveTimeIsPlayTime() throws {
        var room = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), seed: 1))
        try room.perform(.join(name: "alice"), by: alice, at: 1_000)
        try room.perform(.leave, by: alice, at: 2_000)
        try room.perform(.join(name: "alice"), by: alice, at: 50_000)
        let events = try solve(&room, at: 53_000)
        #expect(events.last?.body == .solved(puzzle: 0, elapsedMillis: 4_000))
        #expect(room.elapsed(at: 99_000) == 4_000)
    }

    @Test func nextPuzzleResetsPerPuzzleMovesAndKeepsTotals() throws {
        var room = try makeRoom(.swap, 2, 2)
        _ = try solve(&room)
        let moves = try #require(room.players[alice]?.moves)
        try room.perform(.leave, by: bob, at: 15)
        try room.perform(.next, by: alice, at: 20)
        #expect(room.players[alice]?.moves == 0 && room.players[alice]?.totalMoves == moves)
        #expect(room.roomMoves == 0 && room.roomTotalMoves == moves)
        #expect(room.elapsed(at: 25) == 5)
    }

    @Test func endSessionsMakesEveryoneAwayAndPausesTheClock() throws {
        var room = try makeRoom(.jigsaw, 3, 3)
        try room.perform(.grab(piece: 1), by: bob, at: 100)
        room.endSessions(at: 300)
        #expect(room.players.isEmpty && room.locks.isEmpty && Set(room.absent.keys) == [alice, bob])
        #expect(room.elapsed(at: 10_000) == 300 && !room.clockIsRunning)
    }
}
