import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
import Testing
@testable import PuzzleServer

/// Clock marks (issue 10): while a room's clock runs, the journal vouches for
/// it ahead of time, so that a crash never sets the clock back below a play
/// time a client was shown.
@Suite("Clock marks")
struct ClockMarkTests {
    @Test("a mark round-trips through the journal's format and is checksummed")
    func markFormat() throws {
        var bytes = JournalLine.header(after: 3)
        JournalLine.encodeClockMark(storeTime: 4_321, into: &bytes)
        let parsed = JournalLine.parseFile(bytes)
        #expect(parsed.lastClockMark == 4_321)
        #expect(parsed.records.isEmpty && parsed.badLines.isEmpty)
        // One digit of the time changed: the checksum no longer matches.
        var changed = bytes
        let at = try #require(changed.firstIndex(of: UInt8(ascii: "@")))
        changed[at + 1] = UInt8(ascii: "5")
        #expect(JournalLine.parseFile(changed).lastClockMark == nil)
        #expect(JournalLine.parseFile(changed).badLines.map(\.reason) == ["checksum mismatch"])
    }

    /// A new room on a new store, alice in it (her join journaled).
    static func roomWithAlice() throws -> (RoomStoreScratch, RoomStore, RoomStorePlay) {
        let scratch = try RoomStoreScratch()
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "alpha", kind: .jigsaw)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        return (scratch, store, play)
    }

    @Test("after a crash the clock reads the latest mark's play time, even across two snapshots")
    func markCountsAfterCrash() throws {
        let (scratch, store, play) = try Self.roomWithAlice()
        defer { scratch.removeAll() }
        let joinedAt = play.clock
        // Vouched for 5 s of play; two snapshots rotate the journal that holds
        // the mark out of both journals: the mark must go along.
        try store.markClock(room: "alpha", until: joinedAt + 5_000)
        _ = try store.commit()
        try store.snapshot(play.stored, now: joinedAt + 100)
        try store.snapshot(play.stored, now: joinedAt + 200)

        let rooms = try scratch.store().loadAll(now: 90_000)
        let state = try #require(rooms.first?.snapshot.state)
        #expect(state.elapsed(at: 90_000) == 5_000)
        #expect(!state.clockIsRunning)
    }

    @Test("a mark does not make a paused clock run: a leave after it keeps its own time")
    func markAfterLeaveDoesNotCount() throws {
        var (scratch, store, play) = try Self.roomWithAlice()
        defer { scratch.removeAll() }
        try store.markClock(room: "alpha", until: play.clock + 2_000)
        try play.perform(.leave, into: store)
        let played = play.state.elapsed(at: play.clock)
        _ = try store.commit()

        let rooms = try scratch.store().loadAll(now: 90_000)
        #expect(rooms.first?.snapshot.state.elapsed(at: 90_000) == played)
    }
}
