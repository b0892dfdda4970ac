import Testing
import PuzzleCore
@testable import PuzzleClient

/// The hand ahead of the server: a drag's point shown until settled, lapsed
/// holds remembered until the piece is taken again, Tab's walk over free pieces.
@Suite struct LocalHandTests {
    func room() throws -> RoomState {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), seed: 3))
        try st.perform(.join(name: "a"), by: PlayerID(1), at: 0)
        try st.perform(.join(name: "b"), by: PlayerID(2), at: 0)
        return st
    }

    @Test func aDragIsShownAheadUntilSettled() throws {
        let st = try room()
        var hand = LocalHand()
        #expect(hand.position(of: 1, in: st) == st.position(of: 1))
        let first = hand.drag(1, to: Point(x: 7, y: 3), in: st)
        let same = hand.drag(1, to: Point(x: 7, y: 3), in: st)
        let moved = hand.drag(1, to: Point(x: 8, y: 3), in: st)
        #expect(first && !same && moved, "the same point again asks nothing")
        #expect(hand.position(of: 1, in: st) == Point(x: 8, y: 3))
        #expect(hand.position(of: 2, in: st) == st.position(of: 2))
        hand.dragSettled()
        #expect(hand.drag == nil && hand.position(of: 1, in: st) == st.position(of: 1))
        // Settled, the room's point is where it lies: a drag there asks nothing.
        let toWhereItLies = hand.drag(1, to: st.position(of: 1), in: st)
        #expect(!toWhereItLies)
    }

    @Test func aLapsedHoldIsRememberedUntilThePieceIsTakenAgain() {
        var hand = LocalHand()
        let me = PlayerID(1)
        hand.observe(.returned(piece: 2, by: me, reason: .expired), me: me)
        hand.observe(.returned(piece: 3, by: PlayerID(2), reason: .expired), me: me)
        hand.observe(.returned(piece: 0, by: me, reason: .released), me: me)
        #expect(hand.lapsed == [2])
        hand.observe(.grabbed(piece: 2, by: PlayerID(2)), me: me)
        #expect(hand.lapsed == [2])
        hand.observe(.grabbed(piece: 2, by: me), me: me)
        #expect(hand.lapsed.isEmpty)
    }

    @Test func tabWalksTheFreePiecesRoundAndStartsAgainOnANewPuzzle() throws {
        var st = try room()
        let free = (0..<4).filter { st.isFree($0) }
        try #require(free.count >= 2)
        var hand = LocalHand()
        let walk = (0..<(free.count + 1)).compactMap { _ in hand.nextFree(in: st) }
        #expect(walk == free + [free[0]])
        // Held by someone: skipped.
        try st.perform(.grab(piece: free[1]), by: PlayerID(2), at: 1)
        hand.restartTab()
        let again = hand.nextFree(in: st), next = hand.nextFree(in: st)
        #expect(again == free[0])
        #expect(next == free.dropFirst(2).first ?? free[0])
        hand.restartTab()
        #expect(hand.tabCursor == -1)
    }
}
