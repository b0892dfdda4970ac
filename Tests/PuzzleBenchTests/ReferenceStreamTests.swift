import PuzzleCore
import PuzzleProtocol
import Testing
@testable import PuzzleBench

/// The room's reference stream alone, fed encoded event lines as its members
/// would receive them: it must follow the server's room, and catch a gap, a
/// line that differs between members, and a snapshot that differs from it.
@Suite struct ReferenceStreamTests {
    static let alice = PlayerID(1), bob = PlayerID(2)

    /// Records what the stream tells the play policy.
    final class Observer: ReferenceStreamObserver {
        var solved: [Int] = []
        var next: [Int] = []
        func puzzleSolved(inRoom room: Int) { solved.append(room) }
        func nextPuzzleStarted(inRoom room: Int) { next.append(room) }
    }

    /// A stream for room 3 of a 2x2 jigsaw that alice and bob have joined,
    /// with the members that joined from the room's first snapshot.
    final class Fixture {
        let clock = RunClock()
        let tally: LoadTally
        let stream: ReferenceStream
        let observer = Observer()
        /// The room when the members joined.
        let start: RoomState
        /// The server's room, as the test plays on.
        var room: RoomState
        /// Each member's last seq.
        var lastSeq: [UInt64]

        init(members: Int) throws {
            tally = LoadTally(clock: clock)
            stream = ReferenceStream(name: "den", room: 3, clock: clock, tally: tally)
            var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 3))
            _ = try st.perform(.join(name: "alice"), by: alice, at: 0)
            _ = try st.perform(.join(name: "bob"), by: bob, at: 0)
            start = st
            room = st
            lastSeq = Array(repeating: st.seq, count: members)
            for bot in 0..<members { stream.snapshotJoined(bot: bot, state: st, observer: observer) }
        }

        /// The lines of the sequenced events of alice's `actions` in `state`
        /// (the server's room unless given), as the server writes them.
        func play(_ actions: [Action], in state: inout RoomState) throws -> [[UInt8]] {
            var lines: [[UInt8]] = []
            for action in actions {
                for e in try state.perform(action, by: alice, at: 0) where e.body.isSequenced {
                    var out: [UInt8] = []
                    EventCodec.encode(e, into: &out)
                    lines.append(Array(out.dropLast()))
                }
            }
            return lines
        }

        func play(_ actions: [Action]) throws -> [[UInt8]] { try play(actions, in: &room) }

        /// Alice puts `piece` home: grab, drag home, drop.
        func putHome(_ piece: Int) -> [Action] {
            [.grab(piece: piece), .drag(piece: piece, to: room.geometry.origin(of: room.homeCell(of: piece))), .drop(piece: piece)]
        }

        /// Member `bot` receives `line`, as its event loop hands it on.
        func receive(bot: Int, _ line: [UInt8]) {
            line.withUnsafeBytes { raw in
                var s = LineScanner(raw)
                _ = s.word()
                let seq = UInt64(s.int()!)
                stream.sequenced(bot: bot, lastSeq: &lastSeq[bot], seq: seq, line: LineScanner(raw), observer: observer)
            }
        }

        /// The first note, for the reason of a failure.
        var firstNote: String { tally.failures.messages.first ?? "" }
    }

    @Test func twoMembersFollowTheRoomToItsSolve() throws {
        let f = try Fixture(members: 2)
        let lines = try f.play((0..<4).flatMap(f.putHome))
        #expect(f.room.isSolved)
        for line in lines {
            f.receive(bot: 0, line)
            f.receive(bot: 1, line)
        }
        #expect(f.tally.failures == LoadFailures() && f.tally.viewMismatches == 0)
        #expect(f.lastSeq == [f.room.seq, f.room.seq])
        #expect(f.stream.referenceSeq == Int(f.room.seq))
        #expect(f.stream.referenceDigest == f.room.digest)
        #expect(f.stream.caughtUp)
        // The solve is applied once, and told once, for room 3.
        #expect(f.observer.solved == [3])
        #expect(f.stream.solveMillis.count == 1)
    }

    @Test func aMissedEventIsAGapAndTheMemberStaysWhereItWas() throws {
        let f = try Fixture(members: 1)
        let lines = try f.play(f.putHome(0))
        #expect(lines.count >= 2)
        f.receive(bot: 0, lines[1])
        #expect(f.tally.failures.eventGaps == 1)
        #expect(f.lastSeq == [f.start.seq])
        #expect(f.stream.referenceSeq == Int(f.start.seq))
        #expect(f.firstNote.contains("bot0: event seq \(f.start.seq + 2) after seq \(f.start.seq)"))
    }

    @Test func aLineThatDiffersBetweenMembersIsAViewMismatch() throws {
        let f = try Fixture(members: 2)
        var other = f.start
        let line = try f.play([.grab(piece: 0)])[0]
        let otherLine = try f.play([.grab(piece: 1)], in: &other)[0]
        #expect(line != otherLine && line.prefix(5) == otherLine.prefix(5))
        f.receive(bot: 0, line)
        f.receive(bot: 1, otherLine)
        #expect(f.tally.viewMismatches == 1)
        #expect(f.tally.failures.eventGaps == 0)
        #expect(f.firstNote.contains("bot1: event line for seq \(f.start.seq + 1) differs"))
    }

    @Test func aJoinSnapshotThatDiffersFromTheReferenceAtItsSeqIsAViewMismatch() throws {
        let f = try Fixture(members: 1)
        let line = try f.play([.grab(piece: 0)])[0]
        // bot1 joins at the next seq with the room as it is; bot2 with one
        // where another piece was grabbed.
        var wrong = f.start
        _ = try f.play([.grab(piece: 1)], in: &wrong)
        #expect(wrong.seq == f.room.seq && wrong.digest != f.room.digest)
        f.stream.snapshotJoined(bot: 1, state: f.room, observer: f.observer)
        f.stream.snapshotJoined(bot: 2, state: wrong, observer: f.observer)
        #expect(!f.stream.caughtUp)
        f.receive(bot: 0, line)
        #expect(f.stream.caughtUp)
        #expect(f.tally.viewMismatches == 1)
        #expect(f.firstNote.contains("bot2's JOIN snapshot at seq \(f.room.seq)"))
    }
}
