import PuzzleCore
import PuzzleProtocol
import Testing
@testable import PuzzleBench

/// The room's reference stream alone, fed encoded event lines as two members
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

    /// A stream for room 3, with its tally.
    static func stream() -> (ReferenceStream, LoadTally) {
        let clock = RunClock()
        let tally = LoadTally(clock: clock)
        return (ReferenceStream(name: "den", room: 3, clock: clock, tally: tally), tally)
    }

    /// A 2x2 jigsaw room that alice and bob have joined.
    static func room() throws -> RoomState {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 3))
        _ = try st.perform(.join(name: "alice"), by: alice, at: 0)
        _ = try st.perform(.join(name: "bob"), by: bob, at: 0)
        return st
    }

    /// Alice puts `pieces` home one by one: grab, drag home, drop.
    static func putHome(_ pieces: [Int], in st: inout RoomState) throws -> [RoomEvent] {
        var events: [RoomEvent] = []
        for p in pieces {
            events += try st.perform(.grab(piece: p), by: alice, at: 0)
            events += try st.perform(.drag(piece: p, to: st.geometry.origin(of: st.homeCell(of: p))), by: alice, at: 0)
            events += try st.perform(.drop(piece: p), by: alice, at: 0)
        }
        return events
    }

    /// The sequenced events' lines, as the server writes them (without LF).
    static func lines(_ events: [RoomEvent]) -> [[UInt8]] {
        events.filter(\.body.isSequenced).map { e in
            var out: [UInt8] = []
            EventCodec.encode(e, into: &out)
            return Array(out.dropLast())
        }
    }

    /// Feeds `line` to member `bot` as its event loop does.
    static func receive(_ stream: ReferenceStream, bot: Int, lastSeq: inout UInt64, _ line: [UInt8], _ observer: Observer) {
        line.withUnsafeBytes { raw in
            var s = LineScanner(raw)
            _ = s.word()
            let seq = UInt64(s.int()!)
            stream.sequenced(bot: bot, lastSeq: &lastSeq, seq: seq, line: LineScanner(raw), observer: observer)
        }
    }

    @Test func twoMembersFollowTheRoomToItsSolve() throws {
        let (stream, tally) = Self.stream()
        let observer = Observer()
        var st = try Self.room()
        let start = st
        stream.snapshotJoined(bot: 0, state: start, observer: observer)
        stream.snapshotJoined(bot: 1, state: start, observer: observer)
        let lines = Self.lines(try Self.putHome([0, 1, 2, 3], in: &st))
        #expect(st.isSolved)
        var seq0 = start.seq, seq1 = start.seq
        for line in lines {
            Self.receive(stream, bot: 0, lastSeq: &seq0, line, observer)
            Self.receive(stream, bot: 1, lastSeq: &seq1, line, observer)
        }
        #expect(tally.failures == LoadFailures() && tally.viewMismatches == 0)
        #expect(seq0 == st.seq && seq1 == st.seq)
        #expect(stream.referenceSeq == Int(st.seq))
        #expect(stream.referenceDigest == st.digest)
        #expect(stream.caughtUp)
        // The solve is applied once, and told once, for room 3.
        #expect(observer.solved == [3])
        #expect(stream.solveMillis.count == 1)
    }

    @Test func aMissedEventIsAGapAndTheMemberStaysWhereItWas() throws {
        let (stream, tally) = Self.stream()
        let observer = Observer()
        var st = try Self.room()
        let start = st
        stream.snapshotJoined(bot: 0, state: start, observer: observer)
        let lines = Self.lines(try Self.putHome([0], in: &st))
        #expect(lines.count >= 2)
        var seq = start.seq
        Self.receive(stream, bot: 0, lastSeq: &seq, lines[1], observer)
        #expect(tally.failures.eventGaps == 1)
        #expect(seq == start.seq)
        #expect(stream.referenceSeq == Int(start.seq))
        #expect(tally.failures.messages.first?.contains("bot0: event seq \(start.seq + 2) after seq \(start.seq)") == true)
    }

    @Test func aLineThatDiffersBetweenMembersIsAViewMismatch() throws {
        let (stream, tally) = Self.stream()
        let observer = Observer()
        var st = try Self.room()
        let start = st
        stream.snapshotJoined(bot: 0, state: start, observer: observer)
        stream.snapshotJoined(bot: 1, state: start, observer: observer)
        var other = start
        let line = Self.lines(try Self.putHome([0], in: &st))[0]
        let otherLine = Self.lines(try other.perform(.grab(piece: 1), by: Self.alice, at: 0))[0]
        #expect(line != otherLine && line.prefix(5) == otherLine.prefix(5))
        var seq0 = start.seq, seq1 = start.seq
        Self.receive(stream, bot: 0, lastSeq: &seq0, line, observer)
        Self.receive(stream, bot: 1, lastSeq: &seq1, otherLine, observer)
        #expect(tally.viewMismatches == 1)
        #expect(tally.failures.eventGaps == 0)
        #expect(tally.failures.messages.first?.contains("bot1: event line for seq \(start.seq + 1) differs") == true)
    }

    @Test func aJoinSnapshotThatDiffersFromTheReferenceAtItsSeqIsAViewMismatch() throws {
        let (stream, tally) = Self.stream()
        let observer = Observer()
        var st = try Self.room()
        let start = st
        stream.snapshotJoined(bot: 0, state: start, observer: observer)
        var seq0 = start.seq
        let line = Self.lines(try st.perform(.grab(piece: 0), by: Self.alice, at: 0))[0]
        // bot1 joins at the next seq, first with the room as it is, then
        // (bot2) with one where another piece was grabbed.
        var wrong = start
        _ = try wrong.perform(.grab(piece: 1), by: Self.alice, at: 0)
        #expect(wrong.seq == st.seq && wrong.digest != st.digest)
        stream.snapshotJoined(bot: 1, state: st, observer: observer)
        stream.snapshotJoined(bot: 2, state: wrong, observer: observer)
        #expect(!stream.caughtUp)
        Self.receive(stream, bot: 0, lastSeq: &seq0, line, observer)
        #expect(stream.caughtUp)
        #expect(tally.viewMismatches == 1)
        #expect(tally.failures.messages.first?.contains("bot2's JOIN snapshot at seq \(st.seq)") == true)
    }
}
