import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Which loose piece lies on top (`TableStack`): the last taken or put down
/// on the table, as the page stacks them, so a press takes the piece both
/// clients show on top; a fresh snapshot stacks by number.
@Suite struct TableStackTests {
    /// Alice (1) and bob (2) in a 3x3 jigsaw; alice's session has read the room.
    func joined() throws -> (ClientSession, RoomState) {
        let st = try AliceAndBob.joined(RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 5)))
        let s = AliceAndBob.session(in: "trio", of: st)
        #expect(s.phase == .joined)
        return (s, st)
    }

    /// Bob takes `piece` and drops it at `point` on the table; alice's session
    /// reads the events the server would send.
    func bobMoves(_ piece: Int, to point: Point, _ s: inout ClientSession, _ st: inout RoomState) throws {
        var ev: [RoomEvent] = []
        try st.perform(.grab(piece: piece), by: PlayerID(2), at: 1, into: &ev)
        try st.perform(.drag(piece: piece, to: point), by: PlayerID(2), at: 1, into: &ev)
        try st.perform(.drop(piece: piece), by: PlayerID(2), at: 1, into: &ev)
        for e in ev { s.receive(Substring(EventCodec.line(e)), now: 1) }
    }

    @Test func thePieceLastPutDownLiesOnTopAndIsTheOneAPressTakes() throws {
        var (s, st) = try joined()
        // A lower piece put down exactly on a higher one (where it joins
        // nothing): by number the higher would lie above.
        let pairs = (0..<9).flatMap { a in (a + 1..<9).map { (a, $0) } }
        let found = pairs.first { a, b in st.board.joins(a, at: st.position(of: b), rotation: 0, isFree: { _ in true }) == nil }
        let (low, high) = try #require(found)
        let spot = st.position(of: high)
        try bobMoves(low, to: spot, &s, &st)
        #expect(s.state?.position(of: low) == spot)
        let inside = Point(x: spot.x + 1, y: spot.y + 1)
        #expect(TableLens().topPiece(at: inside, in: s.state!, stack: s.stack) == low)
        _ = s.pointerPress(at: inside, now: 2)
        #expect(s.takeOutgoing() == [.grab(low)])
        // Drawn the same way: the higher number under the lower.
        #expect(s.stack.bottomToTop([low, high], in: s.state!) == [high, low])
    }

    @Test func aFreshSnapshotStacksByNumberAgain() throws {
        var (s, st) = try joined()
        try bobMoves(2, to: Point(x: 0, y: 0), &s, &st)
        #expect(s.stack.bottomToTop([2, 7], in: s.state!) == [7, 2])
        s.requestSync(now: 2)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "trio", state: st, picture: nil), now: 2) { s.receive(Substring(line), now: 2) }
        s.receive("OK sync seq=\(st.seq) digest=0", now: 2)
        #expect(s.stack == TableStack())
        #expect(s.stack.bottomToTop([2, 7], in: s.state!) == [2, 7])
    }

    @Test func aPartLiesAsHighAsItsHighestPieceAndRisesWhole() throws {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 5))
        var ev: [RoomEvent] = []
        try st.perform(.join(name: "bob"), by: PlayerID(2), at: 0, into: &ev)
        // 0 and 1 joined (1 put down beside 0), 8 loose.
        let beside = st.board.point(of: 1, grip: 0, at: st.position(of: 0), rotation: 0)
        for a: Action in [.grab(piece: 1), .drag(piece: 1, to: beside), .drop(piece: 1)] { try st.perform(a, by: PlayerID(2), at: 1, into: &ev) }
        #expect(st.parts.part(of: 1) == 0)
        var stack = TableStack()
        // By number: the part (named 0, its highest piece 1) under 8, drawn once.
        #expect(stack.bottomToTop([0, 1, 8], in: st) == [0, 8])
        stack.raise(1, in: st)
        // Taken by any piece, the whole part rises.
        #expect(stack.bottomToTop([0, 1, 8], in: st) == [8, 0])
        let height = stack.heights(in: st)
        #expect(height(0) == height(1) && height(1) > height(8))
        stack.raise(8, in: st)
        #expect(stack.bottomToTop([0, 1, 8], in: st) == [0, 8])
    }
}
