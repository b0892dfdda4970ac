import Testing
@testable import PuzzleCore

@Suite struct BadInputTests {
    @Test func unknownPiece() throws {
        var room = try makeRoom(.jigsaw)
        let before = room
        #expect(throws: PuzzleError.unknownPiece(16)) { try room.perform(.grab(piece: 16), by: alice, at: 1) }
        #expect(throws: PuzzleError.unknownPiece(-1)) { try room.perform(.drop(piece: -1), by: alice, at: 1) }
        #expect(room == before)
    }

    @Test func pointOffTheTable() throws {
        var room = try makeRoom(.jigsaw)
        try room.perform(.grab(piece: 0), by: alice, at: 1)
        let before = room
        #expect(throws: PuzzleError.offTable(Point(x: -1, y: 0))) { try room.perform(.drag(piece: 0, to: Point(x: -1, y: 0)), by: alice, at: 1) }
        let edge = Point(x: room.geometry.width - room.geometry.unit + 1, y: 0)
        #expect(throws: PuzzleError.offTable(edge)) { try room.perform(.drag(piece: 0, to: edge), by: alice, at: 1) }
        #expect(room == before)
    }

    @Test func rotationWhenRotationIsOff() throws {
        var room = try makeRoom(.jigsaw)
        try room.perform(.grab(piece: 0), by: alice, at: 1)
        #expect(throws: PuzzleError.rotationDisabled) { try room.perform(.rotate(piece: 0), by: alice, at: 1) }
        #expect(try PuzzleSpec(kind: .swap, rows: 3, cols: 3, rotation: true).rotation == false)
    }

    @Test func dropWithoutHold() throws {
        var room = try makeRoom(.swap, 3, 3)
        #expect(throws: PuzzleError.notHolder(piece: 2)) { try room.perform(.drop(piece: 2), by: alice, at: 1) }
    }

    @Test func boardSizeOutOfRange() {
        #expect(throws: PuzzleError.sizeOutOfRange(rows: 1, cols: 4)) { try PuzzleSpec(kind: .swap, rows: 1, cols: 4) }
        #expect(throws: PuzzleError.sizeOutOfRange(rows: 4, cols: 101)) { try PuzzleSpec(kind: .jigsaw, rows: 4, cols: 101) }
        #expect((try? PuzzleSpec(kind: .jigsaw, rows: 100, cols: 100))?.pieceCount == 10_000)
    }

    @Test func actionsBeforeJoiningAndDoubleJoin() throws {
        var room = try makeRoom(.swap, 2, 2)
        #expect(throws: PuzzleError.unknownPlayer(PlayerID(9))) { try room.perform(.grab(piece: 0), by: PlayerID(9), at: 1) }
        #expect(throws: PuzzleError.alreadyJoined(alice)) { try room.perform(.join(name: "again"), by: alice, at: 1) }
    }

    @Test func eventsOutOfSequenceAreRefused() throws {
        var room = try makeRoom(.swap, 2, 2)
        var copy = room
        let events = try room.perform(.grab(piece: 0), by: alice, at: 1) + room.perform(.release(piece: 0), by: alice, at: 2)
        #expect(throws: PuzzleError.sequenceMismatch(expected: 3, got: 4)) { try copy.apply(events[1]) }
        try copy.apply(events[0]); try copy.apply(events[1])
        #expect(copy == room)
    }
}

/// One name rule for players, rooms and pictures, wherever they come from.
@Suite struct NameRuleTests {
    @Test func lettersDigitsUnderscoreDashDotUpTo24() {
        #expect(NameRule.isValid("Room_1.a-b"))
        #expect(NameRule.isValid(String(repeating: "x", count: 24)))
        #expect(!NameRule.isValid(String(repeating: "x", count: 25)))
        #expect(!NameRule.isValid(""))
        #expect(!NameRule.isValid("a b"))
        #expect(!NameRule.isValid("a/b"))
        #expect(!NameRule.isValid("é"))
    }

    @Test func dotAndDotDotAreNotNamesBecauseRoomsAreDirectories() {
        #expect(!NameRule.isValid("."))
        #expect(!NameRule.isValid(".."))
        #expect(NameRule.isValid("..."))
        #expect(NameRule.isValid(".hidden"))
    }
}
