import PuzzleCore
import PuzzleProtocol
import Testing
@testable import PuzzleBench

/// The end checks on parts: a room's mirror and the server's final snapshot
/// must hold only sound parts, and the snapshot must be the mirror.
@Suite struct PartEndChecksTests {
    let alice = PlayerID(1), bob = PlayerID(2)

    /// A 6x6 room whose pieces 7 and 8 are joined on the table's top edge.
    func roomWithAPart() throws -> RoomState {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 6, cols: 6)
        var r = RoomState(settings: RoomSettings(first: spec, seed: 3))
        try r.perform(.join(name: "alice"), by: alice, at: 0)
        try r.perform(.join(name: "bob"), by: bob, at: 0)
        for (piece, x) in [(8, 8), (7, 4)] {
            try r.perform(.grab(piece: piece), by: alice, at: 1)
            try r.perform(.drag(piece: piece, to: Point(x: x, y: 0)), by: alice, at: 1)
            try r.perform(.drop(piece: piece), by: alice, at: 1)
        }
        try #require(r.parts.pieces(with: 8) == [7, 8])
        return r
    }

    /// The room's full snapshot lines (every piece listed), with `edit` applied.
    func lines(_ r: RoomState, _ edit: (inout [String]) -> Void = { _ in }) -> [Substring] {
        var l = SnapshotCodec.lines(RoomSnapshot(name: "t", state: r, picture: nil), now: 0)
        edit(&l)
        return l.map { $0[...] }
    }

    func replace(_ old: String, _ new: String) -> (inout [String]) -> Void {
        { l in
            let i = l.firstIndex(of: old)!
            l[i] = new
        }
    }

    func problem(_ lines: [Substring]) -> String? {
        if case .failure(let p) = EndChecks.readSnapshot(lines, now: 0) { return p.description }
        return nil
    }

    @Test func soundPartsPass() throws {
        let r = try roomWithAPart()
        #expect(EndChecks.partProblem(r, room: "t") == nil)
        #expect(problem(lines(r)) == nil)
        // Held, it is still sound: one hold on its grip.
        var held = r
        try held.perform(.grab(piece: 7), by: bob, at: 2)
        #expect(EndChecks.partProblem(held, room: "t") == nil)
        // The compact form (version 2 on the wire) reads back with the part too.
        let compact = SnapshotCodec.lines(RoomSnapshot(name: "t", state: held, picture: nil), now: 0, compact: true)
        guard case .success(let back) = EndChecks.readSnapshot(compact.map { $0[...] }, now: 0) else {
            Issue.record("compact snapshot did not read back")
            return
        }
        #expect(back.state.parts.pieces(with: 8) == [7, 8] && back.state.holder(of: 8) == bob)
        #expect(back.state.digest == held.digest)
    }

    /// Each way a part can be unsound is caught: a piece out of its place
    /// beside the lowest, turned otherwise, a piece not joined to the rest,
    /// two holds on one part, a part in the board.
    @Test func unsoundPartsFail() throws {
        let r = try roomWithAPart()
        #expect(lines(r).contains("S piece 8 table 8 0 0") && lines(r).contains("S part 7 7-8"))
        let bad: [(String, (inout [String]) -> Void)] = [
            ("one unit out of place", replace("S piece 8 table 8 0 0", "S piece 8 table 9 0 0")),
            ("turned otherwise", replace("S piece 8 table 8 0 0", "S piece 8 table 8 0 1")),
            ("not connected", replace("S part 7 7-8", "S part 7 7-8,20")),
            ("a lone piece", replace("S part 7 7-8", "S part 7 7")),
            ("two holds", { l in
                l.append("S hold 7 1 4 0 0 - 1000")
                l.append("S hold 8 2 8 0 0 - 1000")
            }),
            ("in the board", { l in
                let i = l.firstIndex(of: "S piece 7 table 4 0 0")!
                l[i] = "S piece 7 cell 1 1 0"
            }),
        ]
        for (what, edit) in bad {
            let p = problem(lines(r, edit))
            #expect(p != nil, "\(what)")
            #expect(p?.contains("does not read back") == true, "\(what): \(p ?? "-")")
        }
    }

    /// The check the bench runs on a SYNC reply: a bad snapshot counts as a
    /// part error; a sound one that is the mirror does not; a sound one that
    /// is not the mirror does.
    @Test func theFinalSnapshotCheckCountsBadSnapshots() throws {
        let r = try roomWithAPart()
        let clock = RunClock()
        let tally = LoadTally(clock: clock)
        let stream = ReferenceStream(name: "t", room: 0, clock: clock, tally: tally)
        stream.snapshotJoined(bot: 0, state: r, observer: NoObserver())
        let checks = EndChecks(tally: tally)
        func check(_ lines: [Substring], reply: String) {
            var bytes: [UInt8] = []
            for l in lines { bytes += Array(l.utf8) + [0x0A] }
            Array(reply.utf8).withUnsafeBytes { raw in
                var s = LineScanner(raw)
                _ = s.word()
                checks.checkSnapshot(bot: 0, s, lines: bytes, room: stream, now: 0)
            }
        }
        let good = "OK sync seq=\(r.seq) digest=\(r.digest)"
        check(lines(r), reply: good)
        #expect(checks.partErrors == 0 && checks.snapshotsChecked == 1 && checks.partsAtEnd == 1, "\(tally.failures.messages)")
        check(lines(r, replace("S piece 8 table 8 0 0", "S piece 8 table 9 0 0")), reply: good)
        #expect(checks.partErrors == 1)
        // Sound, but not the mirror: piece 0 elsewhere.
        check(lines(r, { l in
            let i = l.firstIndex { $0.hasPrefix("S piece 0 ") }!
            l[i] = "S piece 0 table 0 8 0"
        }), reply: good)
        #expect(checks.partErrors == 2)
        #expect(tally.failures.messages.count == 2)
    }
}

/// Play is not under test here.
private final class NoObserver: ReferenceStreamObserver {
    func puzzleSolved(inRoom room: Int) {}
    func nextPuzzleStarted(inRoom room: Int) {}
}
