import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Issue 28, carrying a part in the pure session: a press on any piece of a
/// part takes the part by that piece, a press on the part already held keeps
/// its hold, the pointer and the keys keep the whole part on the table (the
/// server would refuse the drag `OFF_TABLE`), Tab takes a part once, and the
/// pointer takes the piece drawn on top (a held part's pieces where its hold
/// carries them).
@Suite struct PartCarryTests {
    /// Alice (1) joined to a 3x3 jigsaw where pieces 4 and 5 (the middle row's
    /// middle and right) are one part with 4's corner at `corner`, and 7 is
    /// joined to 8 as well.
    func joined(corner: Point = Point(x: 8, y: 8), rotation: Bool = false) throws -> (ClientSession, RoomState) {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3, rotation: rotation)
        let base = RoomState(settings: RoomSettings(first: spec, seed: 5))
        var pieces = base.pieces
        pieces[4] = PieceState(location: .table(corner))
        pieces[5] = PieceState(location: .table(Point(x: corner.x + 4, y: corner.y)))
        let seven = base.board.origin(of: 7)
        pieces[8] = PieceState(location: .table(Point(x: seven.x + 4, y: seven.y)))
        let st = try AliceAndBob.joined(RoomState(settings: base.settings, puzzleIndex: 0, spec: spec, pieces: pieces, parts: [[4, 5], [7, 8]],
                                                  locks: [:], players: [:], seq: 0, elapsed: 0, clockRunning: false, solveMillis: nil, now: 0))
        let s = AliceAndBob.session(in: "duo", of: st)
        #expect(s.phase == .joined)
        #expect(s.state?.parts.pieces(with: 5) == [4, 5])
        return (s, st)
    }

    func inside(_ p: Int, _ st: RoomState) -> Point {
        let corner = st.position(of: p)
        return Point(x: corner.x + 1, y: corner.y + 2)
    }

    @Test func aPressOnAPartTakesItAndTheDragKeepsAllOfItOnTheTable() throws {
        var (s, st) = try joined()
        let pressed = s.pointerPress(at: inside(5, st), now: 1)
        let hold = try #require(pressed)
        #expect(hold.piece == 5)
        #expect(s.takeOutgoing() == [.grab(5)])
        s.receive("EV \(st.seq + 1) grabbed 5 1", now: 2)
        s.receive("OK grabbed 5", now: 2)
        #expect(s.heldPiece == 5)
        // Far past the table's left edge: piece 4 (left of the grip) stays on it, so the grip stops a piece in.
        s.pointerDrag(hold, to: Point(x: -40, y: 10), now: 3)
        #expect(s.takeOutgoing() == [.drag(5, Point(x: 4, y: 10 - hold.offset.y))])
        // And past the right edge: the grip itself is the rightmost.
        let g = st.geometry
        s.pointerDrag(hold, to: Point(x: g.width + 40, y: 10), now: 4)
        #expect(s.takeOutgoing() == [.drag(5, Point(x: g.width - g.unit, y: 10 - hold.offset.y))])
        // Shown ahead of the server's echo: piece 4 beside the grip where the drag put it.
        #expect(s.shownPosition(of: 4) == Point(x: g.width - 2 * g.unit, y: 10 - hold.offset.y))
    }

    @Test func aPressOnThePartHeldKeepsItsHoldByTheGrip() throws {
        var (s, st) = try joined()
        _ = s.pointerPress(at: inside(5, st), now: 1)
        _ = s.takeOutgoing()
        s.receive("EV \(st.seq + 1) grabbed 5 1", now: 2)
        s.receive("OK grabbed 5", now: 2)
        // Piece 4 is drawn on top there (a held part above everything): the press keeps the hold on 5.
        let point = inside(4, st)
        let pressed = s.pointerPress(at: point, now: 3)
        let hold = try #require(pressed)
        #expect(hold.piece == 5)
        #expect(hold.offset == Point(x: point.x - st.position(of: 5).x, y: point.y - st.position(of: 5).y))
        #expect(s.takeOutgoing().isEmpty, "neither a release nor a grab")
    }

    @Test func theKeysDoNotStepAPartOffTheTable() throws {
        var (s, st) = try joined(corner: Point(x: 0, y: 8))
        s.receive("EV \(st.seq + 1) grabbed 5 1", now: 2)
        s.receive("OK grabbed 5", now: 2)
        // Piece 4 is at the table's left edge: a step left would take it off.
        s.dragHeld(dx: -1, dy: 0, now: 3)
        #expect(s.takeOutgoing().isEmpty)
        s.dragHeld(dx: 1, dy: 0, now: 4)
        #expect(s.takeOutgoing() == [.drag(5, Point(x: 5, y: 8))])
    }

    /// Turning a held part that would then reach off the table is said at
    /// once (the server would only name a point off the table); one that fits
    /// turns about the piece held.
    @Test func aTurnThatWouldTakeThePartOffTheTableIsNotAsked() throws {
        // On the table's bottom row: 5 right of 4; turned about 4, 5 would lie below it, off the table.
        var (s, st) = try joined(corner: Point(x: 0, y: st3x3BottomRow), rotation: true)
        s.receive("EV \(st.seq + 1) grabbed 4 1", now: 2)
        _ = s.takeOutput()
        s.pointerTurn(at: nil, now: 3)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.takeOutput().map(\.text) == ["error: turned about piece 4, the part would reach off the table: move it further in first"])
        s.receive("EV \(st.seq + 2) released 4 1", now: 4)
        s.receive("EV \(st.seq + 3) grabbed 5 1", now: 4)
        // Turned about 5, 4 goes above it: on the table.
        s.pointerTurn(at: nil, now: 5)
        #expect(s.takeOutgoing() == [.rotate(5)])
    }

    /// A 3x3 table is 20 units high: its bottom row of pieces starts at 16.
    let st3x3BottomRow = 16

    @Test func tabTakesAPartOnceByItsLowestPiece() throws {
        var (s, _) = try joined()
        var taken: [Int] = []
        for t in 0..<7 {
            s.grabNextFree(now: Int64(t))
            for case .grab(let p) in s.takeOutgoing() { taken.append(p) }
        }
        #expect(taken == [0, 1, 2, 3, 4, 6, 7], "5 and 8 go with 4 and 7")
    }

    /// The piece the pointer takes is the one drawn on top: a held part's
    /// pieces where the hold carries them, not where they lay.
    @Test func thePointerFindsThePiecesOfAHeldPartWhereTheyAreCarried() throws {
        var (_, st) = try joined()
        // Under /edges a part with an edge piece shows whole (5 is an edge piece, 4 is not).
        #expect(TableLens(filter: .edges).topPiece(at: inside(4, st), in: st) == 4)
        try st.perform(.grab(piece: 4), by: PlayerID(2), at: 1)
        let lay = st.position(of: 5)
        try st.perform(.drag(piece: 4, to: Point(x: 20, y: 1)), by: PlayerID(2), at: 1)
        #expect(TableLens().topPiece(at: Point(x: 25, y: 2), in: st) == 5)
        #expect(TableLens().topPiece(at: Point(x: 21, y: 2), in: st) == 4)
        #expect(TableLens().topPiece(at: Point(x: lay.x + 1, y: lay.y + 1), in: st) != 5)
    }
}
