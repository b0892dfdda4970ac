import PuzzleCore
import PuzzleSystem

/// Why the room store could not do something.
public enum RoomStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name breaks `NameRule`: it could escape the directory.
    case invalidName(String)
    /// A password containing a line break cannot be stored on its line.
    case invalidPassword(room: String)
    /// A system call on `path` failed.
    case io(path: String, Errno)
    /// A room directory holds no snapshot (nor a usable previous one).
    case noSnapshot(room: String)
    /// A snapshot file could not be read back.
    case corruptSnapshot(room: String, file: String, reason: String)
    /// A complete journal line could not be decoded or did not fit the room.
    case badJournalLine(room: String, file: String, line: Int)
    /// The journal ended in a partial line (a crash mid-write); it was cut off.
    case tornJournal(room: String, droppedBytes: Int)

    public var description: String {
        switch self {
        case .invalidName(let name): return "invalid room name \"\(name)\""
        case .invalidPassword(let room): return "room \(room): password contains a line break"
        case .io(let path, let errno): return "\(path): \(errno)"
        case .noSnapshot(let room): return "room \(room): no snapshot"
        case .corruptSnapshot(let room, let file, let reason): return "room \(room): corrupt \(file): \(reason)"
        case .badJournalLine(let room, let file, let line): return "room \(room): \(file) line \(line) skipped"
        case .tornJournal(let room, let dropped): return "room \(room): torn journal tail (\(dropped) bytes) dropped"
        }
    }
}

/// Something `RoomStore.loadAll` met in one room. With `roomSkipped` the room
/// could not be loaded at all; otherwise it was loaded and this is a warning.
public struct RoomLoadIssue: Hashable, Sendable, CustomStringConvertible {
    public var room: String
    public var error: RoomStoreError
    public var roomSkipped: Bool

    public init(room: String, error: RoomStoreError, roomSkipped: Bool) {
        self.room = room
        self.error = error
        self.roomSkipped = roomSkipped
    }

    public var description: String { "\(roomSkipped ? "room skipped: " : "")\(error)" }
}

/// Wraps an `Errno` with the path it concerns.
@inline(__always)
func onPath<T>(_ path: String, _ body: () throws(Errno) -> T) throws(RoomStoreError) -> T {
    do { return try body() } catch { throw .io(path: path, error) }
}
