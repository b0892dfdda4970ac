import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
import Testing
@testable import PuzzleServer

/// The files left by a crash at each step of a write, rebuilt by hand, must
/// load to exactly the committed state: nothing lost, nothing applied twice.
/// Swap rooms make a twice-applied record visible (a swap applied again swaps back).
@Suite("RoomStore crash consistency")
struct RoomStoreCrashTests {
    @Test("a torn last journal line is ignored and cut, and later records still load")
    func tornLastLine() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "torn", kind: .swap)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.solve(pieces: 0..<4, into: store)
        let journal = scratch.roomFile("torn", "journal")
        let fd = try FileDescriptor.open(journal, .appendExisting)
        try fd.writeAll(Array("@99999 EV 4242 swapped 1 ".utf8))
        try fd.close()

        let reopened = try scratch.store()
        let rooms = try reopened.loadAll(now: 50_000)
        #expect(expectSameRoom(rooms.first, play))
        #expect(reopened.loadIssues.contains { if case .tornJournal(room: "torn", droppedBytes: 25) = $0.error { true } else { false } })
        #expect(try FileSystem.readFile(journal).last == UInt8(ascii: "\n"))

        // Play on from the reloaded room, through the reopened store.
        var more = play
        more.state = try #require(rooms.first).snapshot.state
        more.clock = 50_000
        try more.perform(.join(name: "alice"), into: reopened)
        try more.solve(pieces: 4..<7, into: reopened)
        let again = try scratch.store()
        #expect(expectSameRoom(try again.loadAll(now: 60_000).first, more))
        #expect(again.loadIssues.isEmpty)
    }

    @Test("a corrupt complete journal line is skipped and reported; the rest still applies")
    func corruptMiddleLine() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "bad", kind: .jigsaw)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.solve(pieces: [0], into: store)
        let fd = try FileDescriptor.open(scratch.roomFile("bad", "journal"), .appendExisting)
        try fd.writeAll(Array("@1 EV 77 placed 999 1 cell 0 0 0\nnonsense\n".utf8))
        try fd.close()
        let reopened = try scratch.store()
        let room = try reopened.loadAll(now: 9_000).first
        #expect(expectSameRoom(room, play))
        let bad = reopened.loadIssues.filter { if case .badJournalLine = $0.error { true } else { false } }
        #expect(bad.count == 2)
        #expect(reopened.loadIssues.contains { if case .damagedFileKept(room: "bad", file: "journal", copy: _) = $0.error { true } else { false } })
        #expect(reopened.loadIssues.allSatisfy { !$0.roomSkipped && $0.isDamage })
    }

    /// Plays a swap room with two snapshots (the second taken while a move is
    /// still buffered) and returns the played room and `journal.prev` as it was
    /// before the second snapshot. From the files after it, every crash point
    /// inside that snapshot can be rebuilt:
    /// after step 0 the journal holds what is now `journal.prev`;
    /// until step 4, `journal.prev` is still the older one returned here.
    private func playAroundSnapshot(_ scratch: RoomStoreScratch) throws -> (olderJournal: [UInt8], play: RoomStorePlay) {
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "room", kind: .swap, rows: 4, cols: 4)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.solve(pieces: 0..<3, into: store)
        try store.snapshot(play.stored, now: play.clock)
        try play.solve(pieces: 3..<7, into: store)
        let older = try FileSystem.readFile(scratch.roomFile("room", "journal.prev"))
        // A move buffered but not committed when the snapshot is taken.
        try play.move(7, to: play.state.homeCell(of: 7), into: store)
        try store.snapshot(play.stored, now: play.clock)
        #expect(try store.commit() == [])
        return (older, play)
    }

    private func put(_ scratch: RoomStoreScratch, _ file: String, _ bytes: [UInt8]?) throws {
        let path = scratch.roomFile("room", file)
        if let bytes { try FileSystem.writeFile(path, bytes, sync: false) } else { try FileSystem.removeFile(path, ignoringMissing: true) }
    }

    private func read(_ scratch: RoomStoreScratch, _ file: String) throws -> [UInt8] {
        try FileSystem.readFile(scratch.roomFile("room", file))
    }

    @Test("crash after the new snapshot is in place but before the journal is rotated")
    func crashBeforeJournalRotation() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let (older, play) = try playAroundSnapshot(scratch)
        // The journal still holds records the new snapshot already covers.
        try put(scratch, "journal", try read(scratch, "journal.prev"))
        try put(scratch, "journal.prev", older)
        #expect(try read(scratch, "journal").isEmpty == false)
        let store = try scratch.store()
        #expect(expectSameRoom(try store.loadAll(now: 1).first, play))
        #expect(store.loadIssues.isEmpty)
    }

    @Test("crash between moving the old snapshot aside and renaming the new one in")
    func crashWithoutCurrentSnapshot() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let (older, play) = try playAroundSnapshot(scratch)
        try put(scratch, "snapshot.tmp", try read(scratch, "snapshot"))
        try put(scratch, "snapshot", nil)
        try put(scratch, "journal", try read(scratch, "journal.prev"))
        try put(scratch, "journal.prev", older)
        // Falls back to snapshot.prev plus the journal, which holds the buffered
        // move that step 0 committed: nothing lost.
        #expect(expectSameRoom(try scratch.store().loadAll(now: 1).first, play))
    }

    @Test("crash after the new snapshot's temporary file is written, before any rename")
    func crashBeforeRenames() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let (older, play) = try playAroundSnapshot(scratch)
        try put(scratch, "snapshot.tmp", try read(scratch, "snapshot"))
        try put(scratch, "snapshot", try read(scratch, "snapshot.prev"))
        try put(scratch, "snapshot.prev", nil)
        try put(scratch, "journal", try read(scratch, "journal.prev"))
        try put(scratch, "journal.prev", older)
        #expect(expectSameRoom(try scratch.store().loadAll(now: 1).first, play))
    }

    @Test("a corrupt snapshot falls back to the previous one and both journals")
    func corruptSnapshotFallsBack() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        var (_, play) = try playAroundSnapshot(scratch)
        let store = try scratch.store()
        _ = try store.loadAll(now: play.clock)
        try play.solve(pieces: 8..<10, into: store)
        let snapshot = try FileSystem.readFile(scratch.roomFile("room", "snapshot"))
        try put(scratch, "snapshot", Array(snapshot.prefix(snapshot.count / 2)))

        let reopened = try scratch.store()
        let rooms = try reopened.loadAll(now: 1)
        #expect(expectSameRoom(rooms.first, play))
        #expect(reopened.loadIssues.count == 2)
        #expect(reopened.loadIssues.allSatisfy { !$0.roomSkipped && $0.isDamage })
        #expect(reopened.loadIssues.contains { if case .corruptSnapshot(room: "room", file: "snapshot", reason: _) = $0.error { true } else { false } })
        // The damaged snapshot is kept aside; a repaired one took its place.
        let kept = try #require(reopened.loadIssues.lazy.compactMap { if case .damagedFileKept(_, "snapshot", let copy) = $0.error { copy } else { nil } }.first)
        #expect(try FileSystem.readFile(scratch.roomFile("room", kept)) == Array(snapshot.prefix(snapshot.count / 2)))
        #expect(expectSameRoom(try scratch.store().loadAll(now: 2).first, play))
    }

    @Test("a room with no usable snapshot is skipped alone, its files untouched; an unfinished creation is tidied away")
    func unusableRoomSkippedAlone() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var good = try RoomStorePlay(name: "good", kind: .jigsaw)
        let broken = try RoomStorePlay(name: "broken", kind: .jigsaw)
        try store.create(good.stored, now: good.clock)
        try store.create(broken.stored, now: broken.clock)
        try good.perform(.join(name: "alice"), into: store)
        try good.solve(pieces: [0, 1], into: store)
        let unreadable = Array("# puzzle-room snapshot 1 time=5\nS room broken\n# end\n".utf8)
        for file in ["snapshot", "snapshot.origin"] {
            try FileSystem.writeFile(scratch.roomFile("broken", file), unreadable, sync: false)
        }
        let brokenFiles = try Directory.entries(scratch.path + "/rooms/broken").sorted()
        try Directory.create(scratch.path + "/rooms/empty")

        let reopened = try scratch.store()
        let rooms = try reopened.loadAll(now: 1)
        #expect(rooms.map(\.name) == ["good"])
        #expect(expectSameRoom(rooms.first, good))
        let skipped = reopened.loadIssues.filter(\.roomSkipped).map(\.room).sorted()
        #expect(skipped == ["broken"])
        #expect(reopened.damagedRooms == ["broken"])
        #expect(try Directory.entries(scratch.path + "/rooms/broken").sorted() == brokenFiles)
        #expect(try FileSystem.readFile(scratch.roomFile("broken", "snapshot")) == unreadable)
        #expect(throws: RoomStoreError.damagedRoom("broken")) { try reopened.create(broken.stored, now: 2) }
        #expect(try Directory.isDirectory(scratch.path + "/rooms/empty") == false)
    }
}
