import Foundation
import PuzzleCore
import PuzzleServer
import PuzzleSystem

/// Loading rooms after a crash or from damaged files: `RoomStore.loadAll` must
/// either load the room or skip it with an issue (never trap), a loaded room
/// must be a consistent board with nobody in it, and storing it again must load
/// back to the same board.
///
/// Input: the room's files separated by NUL bytes, in the order of `fileNames`;
/// files past the last part are absent.
public enum StoreCheck {
    static let roomName = "fuzzed"
    static let fileNames = ["snapshot", "journal", "snapshot.prev", "journal.prev"]
    static let now: Int64 = 1 << 36

    /// One data directory per process, emptied before each input.
    nonisolated(unsafe) static var directory: String?

    public static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let base = try dataDirectory()
        let roomDirectory = base + "/rooms/" + roomName
        do {
            for name in fileNames + ["snapshot.tmp"] {
                try FileSystem.removeFile(roomDirectory + "/" + name, ignoringMissing: true)
            }
            _ = try Directory.createAll(roomDirectory)
            let parts = input.split(separator: 0, maxSplits: fileNames.count - 1, omittingEmptySubsequences: false)
            for (name, bytes) in zip(fileNames, parts) {
                try FileSystem.writeFile(roomDirectory + "/" + name, Array(bytes), sync: false)
            }
        } catch {
            throw FuzzFailure(.store, "cannot prepare \(roomDirectory): \(error)")
        }

        let rooms: [StoredRoom]
        let issues: [RoomLoadIssue]
        do {
            let store = try RoomStore(directory: base, fsync: .never, snapshotEvery: 0)
            rooms = try store.loadAll(now: now)
            issues = store.loadIssues
            if let room = rooms.first {
                try checkConsistent(room)
                try store.snapshot(room, now: now)
            }
            store.close()
        } catch let error as FuzzFailure {
            throw error
        } catch {
            throw FuzzFailure(.store, "a loaded room could not be stored again: \(error)")
        }
        let skipped = issues.filter(\.roomSkipped)
        try require(rooms.count + skipped.count == 1, .store, "\(rooms.count) rooms loaded and \(skipped.count) skipped: \(issues)")
        guard let room = rooms.first else { return }

        let reloaded: [StoredRoom]
        let reloadIssues: [RoomLoadIssue]
        do {
            let store = try RoomStore(directory: base, fsync: .never, snapshotEvery: 0)
            reloaded = try store.loadAll(now: now)
            reloadIssues = store.loadIssues
            store.close()
        } catch {
            throw FuzzFailure(.store, "reloading failed: \(error)")
        }
        try require(reloaded.count == 1, .store, "a stored room did not load back: \(reloadIssues)")
        let before = room.snapshot.state, after = reloaded[0].snapshot.state
        try require(after.digest == before.digest && after.settings == before.settings && reloaded[0].password == room.password, .store,
                    "the room changed through storing and loading: \(before.spec) seq \(before.seq) digest \(before.digest) became \(after.spec) seq \(after.seq) digest \(after.digest)")
    }

    /// Every piece once: on the board in a cell of its own (every cell filled on
    /// a swap board), or on the table; nobody holds anything after a restart.
    static func checkConsistent(_ room: StoredRoom) throws(FuzzFailure) {
        let state = room.snapshot.state
        try require(room.name == roomName, .store, "loaded as \"\(room.name)\"")
        try require(state.players.isEmpty && state.locks.isEmpty, .store, "players or holds survived loading")
        try require(state.pieceCount == state.spec.pieceCount, .store, "\(state.pieceCount) pieces on a \(state.spec.rows)x\(state.spec.cols) board")
        var cells = Set<Cell>()
        for (index, piece) in state.pieces.enumerated() {
            try require((0...3).contains(piece.rotation), .store, "piece \(index) turned \(piece.rotation)")
            switch piece.location {
            case .board(let cell):
                try require(state.geometry.isOnBoard(cell) && cells.insert(cell).inserted, .store, "piece \(index) in cell \(cell), off the board or shared")
                try require(state.occupant(of: cell) == index, .store, "cell \(cell) does not know it holds piece \(index)")
            case .table(let point):
                try require(state.spec.kind == .jigsaw && state.geometry.contains(point), .store, "piece \(index) at \(point) on the table")
            }
        }
    }

    static func removeDataDirectory() {
        guard let directory else { return }
        try? FileManager.default.removeItem(atPath: directory)
        self.directory = nil
    }

    static func dataDirectory() throws(FuzzFailure) -> String {
        if let directory { return directory }
        let path = NSTemporaryDirectory() + "puzzle-fuzz-store-\(getpid())"
        do { _ = try Directory.createAll(path) } catch { throw FuzzFailure(.store, "cannot create \(path): \(error)") }
        directory = path
        return path
    }
}
