import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Drags read in one batch that a later drag of the same piece overrides are
/// not mirrored one by one (issue 30): only while nothing about the piece
/// comes between, and the mirror ends as it would with every line.
@Suite struct SupersededDragsTests {
    @Test func aRunOfDragsKeepsEachPiecesLastInOrder() {
        let lines = ["EV 4 dragged 0 1 2 3 -", "EV 4 dragged 1 2 5 5 -", "EV 4 dragged 0 1 4 4 0,0",
                     "EV 4 dragged 1 2 6 6 -", "EV 4 dragged 0 1 8 8 -"]
        #expect(SupersededDrags.skipped(in: lines) == ["EV 4 dragged 1 2 6 6 -", "EV 4 dragged 0 1 8 8 -"])
    }

    @Test func aLineAboutAPieceEndsItsRunAndAnyOtherLineEveryRun() {
        let lines = ["EV 4 dragged 0 1 2 3 -", "EV 4 dragged 1 2 2 3 -", "EV 5 placed 0 1 table 2 3", "EV 5 dragged 0 1 4 4 -",
                     "EV 5 dragged 1 2 4 4 -", "OK dragged 3 1 1 -", "EV 5 dragged 0 1 5 5 -", "EV 5 dragged 0 1 6 6 -",
                     "EV 6 grabbed 7 3", "EV 6 dragged 0 1 7 7 -"]
        #expect(SupersededDrags.skipped(in: lines) == [
            "EV 4 dragged 0 1 2 3 -",  // 0's drop follows: kept
            "EV 5 placed 0 1 table 2 3", "EV 5 dragged 0 1 4 4 -",
            "EV 5 dragged 1 2 4 4 -",  // 1's first drag went: nothing about 1 came between
            "OK dragged 3 1 1 -",  // a reply ends every run
            "EV 6 grabbed 7 3",  // another piece's grab does not end 0's run
            "EV 6 dragged 0 1 7 7 -"])
    }

    @Test func onlyWellFormedLinesAreRead() {
        #expect(SupersededDrags.classify("EV 12 dragged 345 1 0 0 -") == .dragged(345))
        #expect(SupersededDrags.classify("EV 12 returned 3 1 lease") == .aboutPiece(3))
        for line in ["EV x dragged 3 1 0 0 -", "EV  dragged 3 1 0 0 -", "EV 1 dragged x 1", "EV 1 dragged 3",
                     "EV 1 merged 3 4", "OK dragged 3 1 1 -", "ev 1 dragged 3 1 0 0 -", "EV 1 dragged 1234567890 1 0 0 -", ""] {
            #expect(SupersededDrags.classify(line) == .other, "\(line)")
        }
    }

    /// Two players dragging in a 3x3: the session fed the thinned batch holds
    /// the same room as one fed every line.
    @Test func theMirrorEndsAsWithEveryLine() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3)
        var st = try AliceAndBob.joined(RoomState(settings: RoomSettings(first: spec, seed: 5)))
        let s = AliceAndBob.session(in: "duo", of: st)
        #expect(s.phase == .joined)
        var ev: [RoomEvent] = []

        var lines: [String] = []
        func perform(_ action: Action, _ player: Int) throws {
            ev.removeAll()
            _ = try st.perform(action, by: PlayerID(player), at: 1, into: &ev)
            lines += ev.map(EventCodec.line)
        }
        try perform(.grab(piece: 0), 1)
        try perform(.grab(piece: 1), 2)
        for step in 0..<20 {
            try perform(.drag(piece: 0, to: Point(x: step, y: 1)), 1)
            try perform(.drag(piece: 1, to: Point(x: 1, y: step % 8)), 2)
        }
        try perform(.drop(piece: 1), 2)
        for step in 0..<8 { try perform(.drag(piece: 0, to: Point(x: 2, y: step)), 1) }

        let thinned = SupersededDrags.skipped(in: lines)
        #expect(thinned.count == 5 && lines.count == 2 + 40 + 1 + 8, "grabs, 1's last drag, the drop, 0's last drag: \(thinned)")
        var every = s, fewer = s
        for line in lines { every.receive(Substring(line), now: 1) }
        for line in thinned { fewer.receive(Substring(line), now: 1) }
        #expect(every.state == fewer.state && fewer.state == st)
    }
}
