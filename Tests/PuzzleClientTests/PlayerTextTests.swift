import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Numbers and entries as a player reads them.
@Suite struct PlayerTextTests {
    @Test func durationsAndSizes() {
        #expect(PlayerText.seconds(12_345) == "12.3" && PlayerText.seconds(-5) == "0.0" && PlayerText.seconds(99) == "0.0")
        #expect(PlayerText.clock(8_021) == "0:08" && PlayerText.clock(754_000) == "12:34" && PlayerText.clock(-1) == "0:00")
        #expect(PlayerText.size(812) == "812 bytes" && PlayerText.size(34_999) == "34 KB" && PlayerText.size(3_456_789) == "3.4 MB")
        #expect(PlayerText.solved(puzzle: 2, millis: 61_250) == "puzzle 2 solved in 61.2 s")
    }

    @Test func entries() throws {
        #expect(PlayerText.playerEntry(id: PlayerID(3), name: "carol", moves: 1, holding: []) == "carol (#3)  1 move")
        #expect(PlayerText.playerEntry(id: PlayerID(3), name: "carol", moves: 12, holding: [5, 9]) == "carol (#3)  12 moves  holds pieces 5, 9")
        #expect(PlayerText.listingEntry("S who 3 carol moves=12 holding=5,9") == "carol (#3)  12 moves  holds pieces 5, 9")
        let r = ReplayFetchTests.replay
        #expect(PlayerText.historyEntry(r) == "puzzle 4  swap 2x2  0:01  3 moves; placed: bob 1")
        var nobody = r
        nobody.players = []
        #expect(PlayerText.statsText(nobody) == "0 moves", "moves are counted from the players")
    }

    @Test func theBoardAsText() throws {
        let spec = try PuzzleSpec(kind: .swap, rows: 2, cols: 2, rotation: false, picture: "sunset")
        var st = RoomState(settings: RoomSettings(first: spec, seed: 1))
        try st.perform(.join(name: "a"), by: PlayerID(1), at: 0)
        try st.perform(.grab(piece: 1), by: PlayerID(1), at: 0)
        let lines = PlayerText.boardLines(st, names: { $0 == PlayerID(1) ? "alice" : "?" })
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("board: puzzle 0 swap 2x2, "))
        #expect(lines[1].hasPrefix("row 0: ") && lines[2].hasPrefix("row 1: "))
        #expect(lines[3].hasPrefix("held: 1 by alice at "))
    }
}
