import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
import Testing
@testable import PuzzleServer

@Suite("RoomStore")
struct RoomStoreTests {
    @Test("moves committed in a jigsaw room come back on a new store, without holds or players",
          arguments: FsyncPolicy.allCases)
    func roundTrip(policy: FsyncPolicy) throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store(fsync: policy)
        var play = try RoomStorePlay(name: "alpha", kind: .jigsaw, password: "s3cret word")
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.perform(.join(name: "bob"), by: RoomStorePlay.bob, into: store)
        // Bob keeps a piece in hand: holds must not survive.
        try play.perform(.grab(piece: 8), by: RoomStorePlay.bob, into: store)
        try play.solve(pieces: 0..<4, into: store)
        // A piece dropped on the table (no cell under it) is journaled too.
        try play.perform(.grab(piece: 5), into: store)
        try play.perform(.drag(piece: 5, to: Point(x: 0, y: 0)), into: store)
        try play.perform(.drop(piece: 5), into: store)
        _ = try store.commit()
        #expect(play.state.locks.count == 1)

        let reopened = try scratch.store(fsync: policy)
        let rooms = try reopened.loadAll(now: 90_000)
        #expect(rooms.count == 1)
        #expect(reopened.loadIssues.isEmpty)
        #expect(expectSameRoom(rooms.first, play))
        #expect((0..<4).allSatisfy { rooms.first?.snapshot.state.isCorrect($0) == true })
        // The puzzle's clock stands where it was at the last record: the downtime does not count.
        #expect(rooms.first?.snapshot.state.elapsed(at: 90_000) == play.state.elapsed(at: play.clock))
        #expect(rooms.first?.snapshot.state.clockIsRunning == false)
    }

    @Test("an appended record is in the journal at once, before the commit that syncs it")
    func appendedRecordsAreWrittenAtOnce() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "alpha", kind: .jigsaw)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.solve(pieces: [0], into: store)
        // Not committed: a process crash now keeps it (only a power cut before
        // the commit's sync could lose it, and its reply has not gone out).
        try play.move(1, to: play.state.homeCell(of: 1), into: store)
        let rooms = try scratch.store().loadAll(now: 5_000)
        #expect(expectSameRoom(rooms.first, play))
        #expect(rooms.first?.snapshot.state.isCorrect(1) == true)
    }

    @Test("journal lines are written only for durable events, once per commit")
    func journalHoldsDurableEventsOnly() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "alpha", kind: .jigsaw)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.perform(.grab(piece: 2), into: store)
        #expect(try store.commit() == [])
        // The join is kept (who played, for their counters); the grab is not.
        let joined = String(decoding: try FileSystem.readFile(scratch.roomFile("alpha", "journal")), as: UTF8.self)
        #expect(joined.split(separator: "\n").count == 2 && joined.contains(" EV 1 joined 1 alice "))
        try play.perform(.drop(piece: 2), into: store)
        _ = try store.commit()
        let text = String(decoding: try FileSystem.readFile(scratch.roomFile("alpha", "journal")), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.last?.contains(" EV 3 placed 2 1 ") == true)
    }

    @Test("a snapshot followed by more moves reloads to the latest state")
    func snapshotThenMoreMoves() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "swap1", kind: .swap)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.solve(pieces: 0..<3, into: store)
        try store.snapshot(play.stored, now: play.clock)
        #expect(try FileSystem.readFile(scratch.roomFile("swap1", "journal")) == JournalLine.header(after: play.state.seq))
        #expect(try FileSystem.readFileIfPresent(scratch.roomFile("swap1", "journal.prev")) != nil)
        try play.solve(pieces: 3..<6, into: store)

        let rooms = try scratch.store().loadAll(now: 70_000)
        #expect(expectSameRoom(rooms.first, play))
    }

    @Test("solving, then the next puzzle, then moves on it: all survive, with the new puzzle's clock")
    func solvedAndNextPuzzle() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let first = try scratch.store()
        var play = try RoomStorePlay(name: "swap2", kind: .swap)
        try first.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: first)
        try play.solve(pieces: 0..<9, into: first)
        #expect(play.state.isSolved)
        let solvedElapsed = play.state.solveMillis
        // A restart (one store at a time, as the data-directory lock ensures).
        first.close()
        let store = try scratch.store()
        let reloadedSolved = try store.loadAll(now: 3_000).first?.snapshot.state
        #expect(reloadedSolved?.isSolved == true)
        #expect(reloadedSolved?.solveMillis == solvedElapsed && solvedElapsed != nil)
        play.state = try #require(reloadedSolved)
        play.clock = 3_000
        try play.perform(.join(name: "alice"), into: store)

        try play.perform(.next, into: store)
        _ = try store.commit()
        try play.solve(pieces: 0..<2, into: store)
        #expect(play.state.puzzleIndex == 1)

        let rooms = try scratch.store().loadAll(now: 500_000)
        #expect(expectSameRoom(rooms.first, play))
        #expect(rooms.first?.snapshot.state.elapsed(at: 500_000) == play.state.elapsed(at: play.clock))
    }

    @Test("two rooms are kept apart")
    func roomsKeptApart() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var a = try RoomStorePlay(name: "a", kind: .jigsaw, seed: 1)
        var b = try RoomStorePlay(name: "b-2.x", kind: .swap, seed: 2, password: "pw")
        try store.create(a.stored, now: a.clock)
        try store.create(b.stored, now: b.clock)
        try a.perform(.join(name: "alice"), into: store)
        try b.perform(.join(name: "alice"), into: store)
        try a.move(0, to: a.state.homeCell(of: 0), into: store)
        try b.move(4, to: b.state.homeCell(of: 4) == Cell(row: 0, col: 0) ? Cell(row: 0, col: 1) : Cell(row: 0, col: 0), into: store)
        _ = try store.commit()
        try b.move(7, to: b.state.pieces[7].location == .board(Cell(row: 2, col: 2)) ? Cell(row: 1, col: 1) : Cell(row: 2, col: 2), into: store)
        _ = try store.commit()

        let rooms = try scratch.store().loadAll(now: 10_000)
        #expect(rooms.map(\.name) == ["a", "b-2.x"])
        #expect(expectSameRoom(rooms.first { $0.name == "a" }, a))
        #expect(expectSameRoom(rooms.first { $0.name == "b-2.x" }, b))
    }

    @Test("names that could leave the rooms directory are refused",
          arguments: ["../evil", "a/b", "/abs", ".", "..", "", "x y", String(repeating: "n", count: 25)])
    func badNamesRefused(name: String) throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: name, kind: .jigsaw)
        #expect(throws: RoomStoreError.invalidName(name)) { try store.create(play.stored, now: 0) }
        #expect(throws: RoomStoreError.invalidName(name)) { try store.snapshot(play.stored, now: 0) }
        try play.state.perform(.join(name: "alice"), by: RoomStorePlay.alice, at: 0)
        do {
            try play.move(0, to: play.state.homeCell(of: 0), into: store)
            Issue.record("a drop in a room the store refused was journalled")
        } catch let error as RoomStoreError {
            #expect(error == .unknownRoom(name))
        }
        #expect(try store.commit() == [])
        #expect(try Directory.entries(scratch.path) == ["rooms"])
        #expect(try Directory.entries(scratch.path + "/rooms") == [])
        #expect(NameRule.isValid("Room_1.a-b"))
    }

    @Test("commit reports a room once its journal reaches snapshotEvery records, until it is snapshotted")
    func snapshotEveryReported() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store(snapshotEvery: 3)
        var play = try RoomStorePlay(name: "busy", kind: .swap)
        var quiet = try RoomStorePlay(name: "quiet", kind: .swap, seed: 5)
        try store.create(play.stored, now: play.clock)
        try store.create(quiet.stored, now: quiet.clock)
        try play.perform(.join(name: "alice"), into: store)
        try quiet.perform(.join(name: "alice"), into: store)
        // The joins are records too: count from fresh journals.
        try store.snapshot(play.stored, now: play.clock)
        try store.snapshot(quiet.stored, now: quiet.clock)
        var reports: [[String]] = []
        for piece in 0..<3 {
            try play.move(piece, to: play.elsewhere(piece), into: store)
            reports.append(try store.commit())
        }
        #expect(reports == [[], [], ["busy"]])
        try quiet.move(0, to: quiet.elsewhere(0), into: store)
        #expect(try store.commit() == [])
        // Still due on the next commit that writes to it, and after a restart.
        let reopened = try scratch.store(snapshotEvery: 3)
        // The restart ends alice's session with a fresh snapshot: she joins again.
        play.state = try #require(try reopened.loadAll(now: 20_000).first { $0.name == "busy" }).snapshot.state
        play.clock = 20_000
        try play.perform(.join(name: "alice"), into: reopened)
        try play.move(3, to: play.elsewhere(3), into: reopened)
        try play.move(5, to: play.elsewhere(5), into: reopened)
        #expect(try reopened.commit() == ["busy"])
        try reopened.snapshot(play.stored, now: play.clock)
        try play.move(4, to: play.elsewhere(4), into: reopened)
        #expect(try reopened.commit() == [])
        #expect(expectSameRoom(try scratch.store().loadAll(now: 30_000).first { $0.name == "busy" }, play))
    }

    @Test("create replaces whatever an earlier room of that name left")
    func createReplacesOldRoom() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var old = try RoomStorePlay(name: "reuse", kind: .swap, seed: 3)
        try store.create(old.stored, now: old.clock)
        try old.perform(.join(name: "alice"), into: store)
        try old.solve(pieces: 0..<4, into: store)
        try store.snapshot(old.stored, now: old.clock)
        try old.solve(pieces: 4..<6, into: store)

        let fresh = try RoomStorePlay(name: "reuse", kind: .swap, seed: 3)
        try store.create(fresh.stored, now: fresh.clock)
        let rooms = try scratch.store().loadAll(now: 1_000)
        #expect(expectSameRoom(rooms.first, fresh))
        #expect(try FileSystem.readFileIfPresent(scratch.roomFile("reuse", "journal.prev")) == nil)
    }

    @Test("a forgotten record for a player whose left never reached the disk loads: no damage, the seq goes on")
    func forgottenAfterALostLeftLoads() throws {
        let scratch = try RoomStoreScratch()
        defer { scratch.removeAll() }
        let store = try scratch.store()
        var play = try RoomStorePlay(name: "lost", kind: .jigsaw, password: nil)
        try store.create(play.stored, now: play.clock)
        try play.perform(.join(name: "alice"), into: store)
        try play.perform(.join(name: "bob"), by: RoomStorePlay.bob, into: store)
        // Alice's `left` was never written (the disk refused it); her
        // `forgotten`, a week later, was.
        let forgotten = RoomEvent(seq: play.state.seq + 1, time: play.clock + 1, body: .forgotten(RoomStorePlay.alice))
        try store.append(room: "lost", events: [forgotten])
        let bobs = RoomEvent(seq: forgotten.seq + 1, time: play.clock + 2, body: .left(RoomStorePlay.bob))
        try store.append(room: "lost", events: [bobs])
        _ = try store.commit()

        let reopened = try scratch.store()
        let rooms = try reopened.loadAll(now: 90_000)
        #expect(rooms.map(\.snapshot.name) == ["lost"])
        #expect(reopened.loadIssues.isEmpty, "\(reopened.loadIssues)")
        #expect(rooms.first?.snapshot.state.seq == bobs.seq)
        #expect(!((try? Directory.entries(scratch.roomFile("lost", ""))) ?? []).contains { $0.contains("damaged") })
    }
}
