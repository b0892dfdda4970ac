import Foundation
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
@testable import PuzzleServer

/// A fresh directory under /tmp for one room-store test, removed afterwards.
struct RoomStoreScratch {
    let path: String

    init() throws {
        path = "/tmp/puzzle-roomstore-test-\(UInt64.random(in: 0...UInt64.max))"
        try Directory.create(path, permissions: 0o700)
    }

    func store(fsync: FsyncPolicy = .batch, snapshotEvery: Int = 0) throws -> RoomStore {
        try RoomStore(directory: path, fsync: fsync, snapshotEvery: snapshotEvery)
    }

    func roomFile(_ room: String, _ file: String) -> String { "\(path)/rooms/\(room)/\(file)" }

    func removeAll() { Self.removeTree(path) }

    private static func removeTree(_ path: String) {
        if (try? Directory.isDirectory(path)) == true {
            for entry in (try? Directory.entries(path)) ?? [] { removeTree(path + "/" + entry) }
            try? Directory.remove(path)
        } else {
            try? FileSystem.removeFile(path, ignoringMissing: true)
        }
    }
}

/// A room being played by the tests, with the store it reports to.
struct RoomStorePlay {
    static let alice = PlayerID(1)
    static let bob = PlayerID(2)

    let name: String
    var state: RoomState
    var password: String?
    var clock: Int64

    init(name: String, kind: PuzzleKind, rows: Int = 3, cols: Int = 3, seed: UInt64 = 11, password: String? = nil, startedAt: Int64 = 1_000) throws {
        self.name = name
        let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols)
        state = RoomState(settings: RoomSettings(first: spec, maxHeld: 2, seed: seed))
        self.password = password
        clock = startedAt
    }

    var stored: StoredRoom { StoredRoom(snapshot: RoomSnapshot(name: name, state: state, picture: nil), password: password) }

    /// Performs one action at the next millisecond step the way the server
    /// does: planned, its durable events appended to the journal, then applied.
    @discardableResult
    mutating func perform(_ action: Action, by player: PlayerID = alice, into store: RoomStore) throws -> [RoomEvent] {
        clock += 37
        var events: [RoomEvent] = []
        try state.plan(action, by: player, at: clock, into: &events)
        try store.append(room: name, events: events)
        state.apply(planned: events)
        return events
    }

    /// Grab, drag onto `cell`, drop. Throws if the drop changed no piece's place
    /// (the tests rely on every move reaching the journal).
    mutating func move(_ piece: Int, to cell: Cell, by player: PlayerID = alice, into store: RoomStore) throws {
        try perform(.grab(piece: piece), by: player, into: store)
        try perform(.drag(piece: piece, to: state.geometry.origin(of: cell)), by: player, into: store)
        let events = try perform(.drop(piece: piece), by: player, into: store)
        guard events.contains(where: \.body.isDurable) else { throw RoomStorePlayError.moveNotDurable(piece: piece, cell: cell) }
    }

    /// A board cell other than the one the piece is in (a swap target).
    func elsewhere(_ piece: Int) -> Cell {
        state.pieces[piece].location == .board(Cell(row: 0, col: 0)) ? Cell(row: 0, col: 1) : Cell(row: 0, col: 0)
    }

    /// Moves each listed piece to its home cell, committing after each drop.
    mutating func solve(pieces: some Sequence<Int>, by player: PlayerID = alice, into store: RoomStore) throws {
        for piece in pieces where !state.isCorrect(piece) {
            try move(piece, to: state.homeCell(of: piece), by: player, into: store)
            _ = try store.commit()
        }
    }

    /// What a restart should give back: the committed board without holds,
    /// every player away with their counters.
    func afterRestart(at now: Int64) -> RoomState {
        var s = state
        s.endSessions(at: now)
        return s
    }
}

/// Checks a reloaded room against what was played.
func expectSameRoom(_ loaded: StoredRoom?, _ play: RoomStorePlay) -> Bool {
    guard let loaded else { return false }
    let got = loaded.snapshot.state
    let want = play.afterRestart(at: play.clock)
    let counters = { (p: [PlayerID: PlayerInfo]) in p.mapValues { "\($0.name) \($0.moves) \($0.totalMoves) \($0.hintUsed)" } }
    if ProcessInfo.processInfo.environment["DEBUG_SAME"] != nil { print("SAME", counters(got.absent), counters(want.absent), got.elapsed(at: 0), want.elapsed(at: 0), got.clockIsRunning) }
    return counters(got.absent) == counters(want.absent) && got.elapsed(at: 0) == want.elapsed(at: 0) && !got.clockIsRunning
        && loaded.name == play.name && loaded.password == play.password && loaded.snapshot.picture == nil
        && got.pieces == want.pieces && got.locks.isEmpty && got.players.isEmpty
        && got.seq == want.seq && got.digest == want.digest && got.puzzleIndex == want.puzzleIndex
        && got.spec == want.spec && got.isSolved == want.isSolved && got.correctCount == want.correctCount
}

enum RoomStorePlayError: Error {
    case moveNotDurable(piece: Int, cell: Cell)
}
