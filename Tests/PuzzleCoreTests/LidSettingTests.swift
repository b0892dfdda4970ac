import Testing
@testable import PuzzleCore

/// The box lid room setting (issue 16): on for jigsaw, off for swap, unless
/// the room says otherwise.
@Suite struct LidSettingTests {
    @Test func theLidDefaultsByKindAndARoomMaySayOtherwise() throws {
        let jigsaw = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), swap = try PuzzleSpec(kind: .swap, rows: 3, cols: 3)
        #expect(RoomSettings(first: jigsaw, seed: 1).lid)
        #expect(!RoomSettings(first: swap, seed: 1).lid)
        #expect(!RoomSettings(first: jigsaw, seed: 1, lid: false).lid)
        #expect(RoomSettings(first: swap, seed: 1, lid: true).lid)
        // A room's lid stays through its puzzles.
        var room = RoomState(settings: RoomSettings(first: swap, seed: 1, lid: true))
        try room.perform(.join(name: "a"), by: PlayerID(1), at: 0)
        for piece in 0..<room.pieceCount where !room.isCorrect(piece) {
            _ = try room.move(piece, to: room.homeCell(of: piece), by: PlayerID(1), at: 1)
        }
        try room.perform(.next, by: PlayerID(1), at: 2)
        #expect(room.settings.lid)
    }
}
