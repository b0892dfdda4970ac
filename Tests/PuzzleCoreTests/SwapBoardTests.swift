import Testing
@testable import PuzzleCore

@Suite struct SwapBoardTests {
    @Test func startsShuffledNeverSolvedAndReproducible() throws {
        for seed in UInt64(0)..<200 {
            let room = try makeRoom(.swap, 2, 2, seed: seed)
            #expect(room.correctCount < 4)
            #expect(room.checkInvariants())
        }
        #expect(try makeRoom(.swap, 5, 5, seed: 9) == makeRoom(.swap, 5, 5, seed: 9))
        #expect(try makeRoom(.swap, 5, 5, seed: 9).pieces != makeRoom(.swap, 5, 5, seed: 10).pieces)
    }

    @Test func dropOnAnotherCellSwapsTheTwoTiles() throws {
        var room = try makeRoom(.swap, 3, 3)
        let a = room.pieces[0].location, b = room.pieces[1].location
        let events = try room.move(0, to: b.cell!)
        #expect(events.map(\.body) == [.swapped(piece: 0, other: 1, by: alice)])
        #expect(room.pieces[0].location == b && room.pieces[1].location == a)
        #expect(room.players[alice]?.moves == 1)
        #expect(room.checkInvariants())
    }

    @Test func swapWithTileHeldBySomeoneElseIsRefusedAndChangesNothing() throws {
        var room = try makeRoom(.swap, 3, 3)
        try room.perform(.grab(piece: 1), by: bob, at: 1)
        let boardBefore = room.pieces
        let events = try room.move(0, to: room.pieces[1].location.cell!)
        #expect(events.map(\.body) == [.returned(piece: 0, by: alice, reason: .noTarget)])
        #expect(room.pieces == boardBefore)
        #expect(room.holder(of: 1) == bob && room.holder(of: 0) == nil)
    }

    @Test func dropWithNoTargetSendsTheTileBack() throws {
        var room = try makeRoom(.swap, 3, 3)
        let before = room.pieces
        let events = try room.move(0, to: room.pieces[0].location.cell!)
        #expect(events.map(\.body) == [.returned(piece: 0, by: alice, reason: .noTarget)])
        #expect(room.pieces == before)
    }

    @Test func swapWithOwnSecondHeldTileWorks() throws {
        var room = try makeRoom(.swap, 3, 3, maxHeld: 2)
        try room.perform(.grab(piece: 1), by: alice, at: 1)
        let b = room.pieces[1].location
        try room.move(0, to: b.cell!)
        #expect(room.pieces[0].location == b && room.holder(of: 1) == alice)
        #expect(room.checkInvariants())
    }
}
