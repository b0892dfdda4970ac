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
    /// A complete journal line could not be decoded, failed its checksum, or did not fit the room.
    case badJournalLine(room: String, file: String, line: Int, reason: String)
    /// The journal ended in a partial line (a crash mid-write); it was cut off.
    case tornJournal(room: String, droppedBytes: Int)
    /// The room's snapshot loaded but its journal is gone: moves made after
    /// the snapshot (sequence `snapshotSeq`) may be lost.
    case journalMissing(room: String, snapshotSeq: UInt64)
    /// A damaged file was kept, byte for byte, under another name.
    case damagedFileKept(room: String, file: String, copy: String)
    /// Keeping a damaged file aside failed (it stays in place).
    case damagedFileNotKept(room: String, file: String, reason: String)
    /// Every snapshot after creation was unusable; the room was rebuilt from
    /// `snapshot.origin` and a journal going back to creation.
    case rebuiltFromOrigin(room: String)
    /// After loading a damaged room, writing its repaired snapshot failed.
    case repairNotWritten(room: String, reason: String)
    /// A room directory left by a creation that never finished (no snapshot,
    /// no records) was removed.
    case unfinishedRoomRemoved(room: String)
    /// A clock value would leave the range the store keeps times in.
    case timeOutOfRange(room: String)
    /// The store has no open journal for this room (not created or loaded).
    case unknownRoom(String)
    /// The room's files are on disk but could not be loaded; they are kept
    /// as evidence, so a room of that name is not created over them.
    case damagedRoom(String)
    /// Syncing the journals failed: the records written since the last sync
    /// were cut off again; the moves they held are not durable.
    case syncFailed(rooms: [String], reason: String)
    /// A kept replay file could not be read back (it is left out of the
    /// room's history and kept in place).
    case badReplay(room: String, file: String, reason: String)

    /// The system's words for a store failure, without paths (for clients).
    static func reason(_ error: RoomStoreError) -> String {
        if case .io(_, let errno) = error { return "\(errno)" }
        return "\(error)"
    }

    public var description: String {
        switch self {
        case .invalidName(let name): return "invalid room name \"\(name)\""
        case .invalidPassword(let room): return "room \(room): password contains a line break"
        case .io(let path, let errno): return "\(path): \(errno)"
        case .noSnapshot(let room): return "room \(room): no snapshot"
        case .corruptSnapshot(let room, let file, let reason): return "room \(room): corrupt \(file): \(reason)"
        case .badJournalLine(let room, let file, let line, let reason): return "room \(room): \(file) line \(line) skipped (\(reason))"
        case .tornJournal(let room, let dropped): return "room \(room): torn journal tail (\(dropped) bytes) dropped"
        case .journalMissing(let room, let seq): return "room \(room): journal missing; moves made after its snapshot (seq \(seq)) may be lost"
        case .damagedFileKept(let room, let file, let copy): return "room \(room): damaged \(file) kept as \(copy)"
        case .damagedFileNotKept(let room, let file, let reason): return "room \(room): damaged \(file) could not be kept aside (\(reason)); left in place"
        case .rebuiltFromOrigin(let room): return "room \(room): rebuilt from snapshot.origin and its journal from creation"
        case .repairNotWritten(let room, let reason): return "room \(room): repaired snapshot not written (\(reason)); damaged files left in place"
        case .unfinishedRoomRemoved(let room): return "room \(room): creation never finished (no snapshot, no records); its leftovers were removed"
        case .timeOutOfRange(let room): return "room \(room): clock out of the store's range"
        case .unknownRoom(let room): return "room \(room): not open in the store"
        case .damagedRoom(let room): return "room \(room): its files are damaged and kept for inspection; move the room's directory away to create it anew"
        case .syncFailed(let rooms, let reason): return "journal sync failed for \(rooms.joined(separator: ", ")): \(reason)"
        case .badReplay(let room, let file, let reason): return "room \(room): replay \(file) not readable (\(reason)); left out of the history"
        }
    }
}

/// Something `RoomStore.loadAll` met in one room. With `roomSkipped` the room
/// could not be loaded at all; otherwise it was loaded and this says what was
/// wrong with its files (`isDamage`: logged as an error) or what was tidied up
/// (a torn tail after a crash: a warning).
public struct RoomLoadIssue: Hashable, Sendable, CustomStringConvertible {
    public var room: String
    public var error: RoomStoreError
    public var roomSkipped: Bool

    public init(room: String, error: RoomStoreError, roomSkipped: Bool) {
        self.room = room
        self.error = error
        self.roomSkipped = roomSkipped
    }

    /// Whether the files were damaged (as opposed to a normal crash leftover).
    public var isDamage: Bool {
        switch error {
        case .tornJournal, .unfinishedRoomRemoved: return false
        default: return true
        }
    }

    public var description: String { "\(roomSkipped ? "room skipped: " : "")\(error)" }
}

/// Wraps an `Errno` with the path it concerns.
@inline(__always)
func onPath<T>(_ path: String, _ body: () throws(Errno) -> T) throws(RoomStoreError) -> T {
    do { return try body() } catch { throw .io(path: path, error) }
}
