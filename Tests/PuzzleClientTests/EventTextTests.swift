import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Events as a player reads them, from the event and the room before it.
@Suite struct EventTextTests {
    static let alice = PlayerID(1), bob = PlayerID(2)
    static func name(_ id: PlayerID) -> String { id == alice ? "alice" : "bob" }
    static func line(_ body: EventBody, time: Int64 = 0, before st: RoomState? = nil, me: PlayerID? = alice) -> String {
        EventText.line(body, time: time, before: st, me: me, names: name)
    }

    @Test func movesAndHolds() {
        #expect(Self.line(.joined(Self.bob, name: "bob")) == "bob (#2) joined")
        #expect(Self.line(.grabbed(piece: 3, by: Self.bob)) == "bob grabbed piece 3")
        #expect(Self.line(.dragged(piece: 3, by: Self.bob, to: Point(x: 4, y: -2), target: nil)) == "bob dragged piece 3 to 4,-2 → no target")
        #expect(Self.line(.rotated(piece: 1, by: Self.alice, rotation: 3, target: Cell(row: 0, col: 1)))
            == "alice rotated piece 1 to 270° → cell 0,1")
        #expect(Self.line(.placed(piece: 5, by: Self.bob, at: .board(Cell(row: 1, col: 2)), rotation: 0)) == "bob placed piece 5 in cell 1,2")
        #expect(Self.line(.returned(piece: 2, by: Self.bob, reason: .expired)) == "bob's hold on piece 2 expired")
        #expect(Self.line(.returned(piece: 2, by: Self.alice, reason: .expired)) == "your piece 2 went back: held without a move")
        #expect(Self.line(.hint(by: Self.bob, untilMillis: 5_250), time: 1_000) == "bob is looking at the hint for 4.2 s")
    }

    @Test func aSwapNamesTheCellsItsPiecesLeftWhenTheRoomHasThem() throws {
        let spec = try PuzzleSpec(kind: .swap, rows: 2, cols: 2)
        var st = RoomState(settings: RoomSettings(first: spec, seed: 5))
        try st.perform(.join(name: "alice"), by: Self.alice, at: 0)
        let a = try #require(st.pieces[0].location.cell), b = try #require(st.pieces[1].location.cell)
        #expect(Self.line(.swapped(piece: 0, other: 1, by: Self.alice), before: st)
            == "alice swapped piece 0 into cell \(b.row),\(b.col) (piece 1 to cell \(a.row),\(a.col))")
        #expect(Self.line(.swapped(piece: 0, other: 9, by: Self.alice), before: st) == "alice swapped piece 0 with piece 9", "no piece 9")
        #expect(Self.line(.swapped(piece: 0, other: 1, by: Self.alice)) == "alice swapped piece 0 with piece 1", "no room")
        let lease = PlayerText.seconds(st.settings.leaseMillis)
        #expect(Self.line(.returned(piece: 2, by: Self.alice, reason: .expired), before: st) == "your piece 2 went back: held \(lease) s without a move")
    }

    @Test func completedLinesAreAppended() {
        #expect(EventText.line("bob placed piece 5 in cell 1,2", completing: []) == "bob placed piece 5 in cell 1,2")
        #expect(EventText.line("bob placed piece 5 in cell 1,2", completing: ["row 1", "column 2"])
            == "bob placed piece 5 in cell 1,2: row 1 and column 2 complete")
        #expect(EventText.kind(of: .dragged(piece: 0, by: Self.bob, to: Point(x: 0, y: 0), target: nil)) == .drag)
        #expect(EventText.kind(of: .grabbed(piece: 0, by: Self.bob)) == .event)
    }
}
