@testable import PuzzleServer
import Testing

/// A loop turn's budget for rooms, alone.
@Suite struct LoopTurnTests {
    @Test func sixtyFourGreetingsSpendATurnsBudgetAndANewTurnHasItWhole() {
        var turn = LoopTurn()
        for _ in 0..<63 { turn.chargeHello() }
        #expect(turn.roomBytes < LoopTurn.roomBytesPerTurn)
        turn.chargeHello()
        #expect(turn.roomBytes >= LoopTurn.roomBytesPerTurn)
        turn.begin()
        #expect(turn.roomBytes == 0)
    }
}
