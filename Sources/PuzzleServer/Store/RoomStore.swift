import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Keeps rooms durable: a snapshot per room plus a journal of the durable
/// events (placed, swapped, solved, next) since that snapshot.
///
/// The server appends a request's durable events with `append` before it
/// applies them (a failed write refuses the move), and calls `commit()` once
/// per event-loop turn before sending any reply of that turn: under `batch`
/// that is where the turn's records are synced. Every file change is ordered so
/// that a `kill -9` (or, unless the policy is `never`, a power cut) at any
/// point loses no acknowledged record and applies none twice:
/// - a snapshot is written to a temporary file, synced, and renamed into place;
///   the previous one is kept as `snapshot.prev`;
/// - the journal is rotated to `journal.prev` only after the new snapshot is
///   durable, so `snapshot.prev` + `journal.prev` + `journal` is a complete
///   history; the rotation links rather than renames, so that once a room
///   exists it always has a `journal` (a missing one is damage, and reported);
/// - `snapshot.origin` is the room as created: with a journal that goes back
///   to creation (`after=0`) it rebuilds the room when every later snapshot is
///   damaged;
/// - replay applies only records newer than the snapshot's sequence number.
///
/// Not thread-safe: owned by the server's event loop.
public final class RoomStore {
    public let directory: String
    public let fsync: FsyncPolicy
    /// Records after which `commit()` asks for a snapshot (0: never).
    public let snapshotEvery: Int
    /// Solved puzzles' replays each room keeps (`replay.<puzzle>` files), the
    /// oldest deleted first; 0 keeps none. Config key `replays_kept`.
    public var replaysKept = 20
    let device: StorageDevice
    let roomsDirectory: String
    var journals: [String: Journal] = [:]
    /// Rooms with records appended since the last `commit()`, in first-append order.
    var touched: [String] = []
    /// What the last `loadAll` met: rooms skipped and warnings about loaded ones.
    public internal(set) var loadIssues: [RoomLoadIssue] = []
    /// Rooms whose files are on disk but could not be loaded. Their files are
    /// evidence: `create` refuses these names rather than replace them.
    public internal(set) var damagedRooms: Set<String> = []

    /// Opens (creating if missing) a store in `directory`, with rooms under
    /// `<directory>/rooms`. `device` performs the writes and syncs (tests
    /// inject failures through it).
    public init(directory: String, fsync: FsyncPolicy, snapshotEvery: Int,
                device: StorageDevice = SystemStorageDevice()) throws(RoomStoreError) {
        self.directory = directory
        self.fsync = fsync
        self.snapshotEvery = max(0, snapshotEvery)
        self.device = device
        roomsDirectory = directory + "/rooms"
        let rooms = roomsDirectory
        let created = try onPath(rooms) { () throws(Errno) in try Directory.createAll(rooms) }
        if created && fsync != .never {
            try onPath(directory) { () throws(Errno) in try Directory.sync(directory) }
        }
        try clearRemoved()
    }

    deinit {
        for journal in journals.values { journal.closeDescriptor() }
    }

    /// Closes every open journal.
    public func close() {
        for journal in journals.values { journal.closeDescriptor() }
        journals.removeAll()
        touched.removeAll()
    }

    var syncs: Bool { fsync != .never }

    /// Registers a new room durably: an empty journal (`after=0`), the room as
    /// created (`snapshot.origin`), then its first snapshot. Leftovers of a
    /// creation that never finished are removed first; the files of a room
    /// that exists on disk but could not be loaded are not touched (the name
    /// is refused with `damagedRoom`). `beginCreate`, `NewRoomFiles.write`
    /// and `finishCreate` in one go (the server writes off its loop).
    public func create(_ room: StoredRoom, now: Int64) throws(RoomStoreError) {
        let files = try beginCreate(room.name)
        finishCreate(try files.write(room, now: now))
    }

    /// Readies a new room's files to be written (`NewRoomFiles.write`, on any
    /// thread): refuses a damaged room's name, and forgets any journal this
    /// store had open under the name. Until `finishCreate`, nothing else may
    /// touch the room's files (the server keeps its name taken meanwhile).
    func beginCreate(_ name: String) throws(RoomStoreError) -> NewRoomFiles {
        let paths = try paths(name)
        guard !damagedRooms.contains(name) else { throw .damagedRoom(name) }
        if let old = journals.removeValue(forKey: name) { old.closeDescriptor() }
        touched.removeAll { $0 == name }
        return NewRoomFiles(paths: paths, roomsDirectory: roomsDirectory, sync: syncs, device: device)
    }

    /// A new room's files are written: its journal is this store's from now on.
    func finishCreate(_ written: NewRoomFiles.Written) {
        journals[written.paths.name] = Journal(paths: written.paths, size: written.journalSize, clockOffset: 0)
    }

    /// Removes a room and all its files, for good (a room closed after
    /// standing empty too long). The room's directory is first renamed out of
    /// `rooms/` into `removed/` (atomic, and synced): a crash at any point
    /// leaves either the whole room or none of it. Then its files are
    /// deleted; leftovers of a crash there are deleted at the next start.
    ///
    /// Throws when the room is still there (nothing changed: its journal
    /// stays open). Once the rename is done the room is gone, whatever
    /// follows: a sync or deletion that failed is returned, for the log (the
    /// next start deletes what is left in `removed/`).
    @discardableResult
    public func remove(room name: String, now: Int64) throws(RoomStoreError) -> RoomStoreError? {
        let paths = try paths(name)
        let removed = removedDirectory
        let aside = removed + "/" + name + "." + String(now)
        let roomsDirectory = roomsDirectory
        try onPath(removed) { () throws(Errno) in _ = try Directory.createAll(removed) }
        try onPath(paths.directory) { () throws(Errno) in try FileSystem.rename(paths.directory, to: aside) }
        if let journal = journals.removeValue(forKey: name) { journal.closeDescriptor() }
        touched.removeAll { $0 == name }
        do {
            if syncs { try onPath(roomsDirectory) { () throws(Errno) in try Directory.sync(roomsDirectory) } }
            try onPath(aside) { () throws(Errno) in try Self.deleteTree(aside) }
        } catch {
            return error
        }
        return nil
    }

    /// Where removed rooms' directories go before their files are deleted.
    var removedDirectory: String { directory + "/removed" }

    /// Deletes what a crash left in `removed/` (rooms already taken out of
    /// `rooms/`, so nothing there is loaded).
    func clearRemoved() throws(RoomStoreError) {
        let removed = removedDirectory
        let leftovers = try onPath(removed) { () throws(Errno) -> [String] in
            (try? Directory.isDirectory(removed)) == true ? try Directory.entries(removed) : []
        }
        for entry in leftovers {
            let path = removed + "/" + entry
            try onPath(path) { () throws(Errno) in try Self.deleteTree(path) }
        }
    }

    /// Deletes a room directory: its files, then the directory (a room's
    /// directory holds only files).
    private static func deleteTree(_ path: String) throws(Errno) {
        for entry in try Directory.entries(path) {
            try FileSystem.removeFile(path + "/" + entry, ignoringMissing: true)
        }
        try Directory.remove(path)
    }

    /// Appends a request's durable events (the others are ignored) to the
    /// room's journal with one write, before the server applies them. Under
    /// `fsync = always` the records are synced before this returns; under
    /// `batch` the next `commit()` syncs them.
    ///
    /// On failure nothing of these events is in the journal and the room can
    /// append again later (the journal is reopened and checked on the next
    /// call): the caller must not apply the events.
    public func append(room: String, events: some Sequence<RoomEvent>) throws(RoomStoreError) {
        guard events.contains(where: \.body.isDurable) else { return }
        guard let journal = journals[room] else { throw .unknownRoom(room) }
        let count = try journal.append(events, device: device)
        guard count > 0 else { return }
        switch fsync {
        case .always: try journal.sync(device: device)
        case .batch: break
        case .never: journal.synced()
        }
        if !touched.contains(room) { touched.append(room) }
    }

    /// Records that the room's puzzle clock may be counted as running up to
    /// server time `until` (a clock mark): after a crash the loader counts
    /// play time up to the latest mark, so a mark written ahead of time keeps
    /// the clock from ever going back below what clients were shown. Synced
    /// like an append: at once under `always`, by the next `commit()` under `batch`.
    public func markClock(room: String, until: Int64) throws(RoomStoreError) {
        guard let journal = journals[room] else { throw .unknownRoom(room) }
        try journal.appendClockMark(until: until, device: device)
        switch fsync {
        case .always: try journal.sync(device: device)
        case .batch: break
        case .never: journal.synced()
        }
        if !touched.contains(room) { touched.append(room) }
    }

    /// Makes every record appended since the last commit durable (policy
    /// `batch`: `fdatasync` when one journal was written, one `syncfs` when
    /// several were, since they live on one file system). Call it before
    /// sending the replies the records acknowledge.
    ///
    /// - Returns: the rooms written to whose journals now hold at least
    ///   `snapshotEvery` records since their last snapshot.
    /// - Throws: `syncFailed` naming every room whose records could not be
    ///   made durable. Their unsynced records have been cut from the journal
    ///   (a failed sync cannot be retried safely): the moves are still in the
    ///   rooms' state, and only a fresh snapshot can keep them now.
    public func commit() throws(RoomStoreError) -> [String] {
        guard !touched.isEmpty else { return [] }
        let written = touched.compactMap { name in journals[name].map { (name, $0) } }
        touched.removeAll()
        let unsynced = written.filter { $0.1.hasUnsynced }
        if let first = unsynced.first {
            do {
                if unsynced.count == 1 {
                    try first.1.sync(device: device)
                } else if let fd = first.1.descriptor {
                    // One syncfs makes every journal durable with a single
                    // file-system commit, where one fdatasync each would cost one each.
                    do {
                        try device.syncFileSystem(fd, path: first.1.paths.journal)
                    } catch {
                        for (_, journal) in unsynced { journal.cutUnsynced() }
                        throw RoomStoreError.io(path: first.1.paths.journal, error)
                    }
                    for (_, journal) in unsynced { journal.synced() }
                }
            } catch {
                throw .syncFailed(rooms: unsynced.map(\.0), reason: "\(error)")
            }
        }
        guard snapshotEvery > 0 else { return [] }
        return written.filter { $0.1.recordsSinceSnapshot >= snapshotEvery }.map(\.0)
    }

    /// Writes a snapshot of the room and starts a fresh journal.
    /// Durable on return unless the policy is `never`.
    public func snapshot(_ room: StoredRoom, now: Int64) throws(RoomStoreError) {
        _ = try paths(room.name)
        guard let journal = journals[room.name] else { throw .unknownRoom(room.name) }
        do {
            try writeSnapshot(room, now: now, journal: journal)
        } catch {
            // Retried after another `snapshotEvery` records rather than every turn
            // (a full disk would otherwise cost a failed snapshot per turn).
            journal.recordsSinceSnapshot = 0
            throw error
        }
    }

    /// The snapshot protocol; every step leaves a loadable, complete history:
    /// 0. sync the room's journal (what `snapshot.prev` will need);
    /// 1. write and sync `snapshot.tmp` (removed again if that fails);
    /// 2. rename `snapshot` to `snapshot.prev` (until step 3 the loader falls back
    ///    to it, and `journal` still holds everything after it);
    /// 3. rename `snapshot.tmp` to `snapshot`, sync the directory: the new
    ///    snapshot is durable; `journal`'s records are all covered by it;
    /// 4. write and sync `journal.tmp` (header, and the latest clock mark if it
    ///    is still ahead of the snapshot: the clock's promise must outlive
    ///    `journal.prev`, which the next snapshot replaces); replace `journal.prev` by
    ///    a link to `journal` (what `snapshot.prev` needs); rename `journal.tmp`
    ///    over `journal`; sync the directory. `journal` exists throughout.
    ///    If step 4 fails the old journal simply stays in use.
    func writeSnapshot(_ room: StoredRoom, now: Int64, journal: Journal) throws(RoomStoreError) {
        let paths = journal.paths
        let sync = syncs
        let device = device
        let (storeTime, overflow) = now.addingReportingOverflow(journal.clockOffset)
        guard !overflow else { throw .timeOutOfRange(room: room.name) }
        let bytes = try RoomSnapshotFile.encode(room, now: now, storeTime: storeTime)
        if sync { try journal.sync(device: device) }
        try onPath(paths.temporarySnapshot) { () throws(Errno) in
            do throws(Errno) {
                try device.writeFile(paths.temporarySnapshot, bytes, sync: sync)
            } catch {
                // A half-written temporary file only takes space a full disk needs.
                try? FileSystem.removeFile(paths.temporarySnapshot, ignoringMissing: true)
                throw error
            }
        }
        try onPath(paths.snapshot) { () throws(Errno) in
            try FileSystem.renameIfPresent(paths.snapshot, to: paths.previousSnapshot)
            try FileSystem.rename(paths.temporarySnapshot, to: paths.snapshot)
            if sync { try Directory.sync(paths.directory) }
        }
        var header = JournalLine.header(after: room.snapshot.state.seq)
        if let marked = journal.clockMarkedUntil, marked > storeTime {
            JournalLine.encodeClockMark(storeTime: marked, into: &header)
        }
        try onPath(paths.journal) { () throws(Errno) in
            do throws(Errno) {
                try device.writeFile(paths.temporaryJournal, header, sync: sync)
            } catch {
                try? FileSystem.removeFile(paths.temporaryJournal, ignoringMissing: true)
                throw error
            }
            try FileSystem.removeFile(paths.previousJournal, ignoringMissing: true)
            do throws(Errno) {
                try FileSystem.link(paths.journal, to: paths.previousJournal)
            } catch where error == .noSuchFile {
                // No journal to keep (it went missing and was reported at load).
            }
            try FileSystem.rename(paths.temporaryJournal, to: paths.journal)
            if sync { try Directory.sync(paths.directory) }
        }
        journal.closeDescriptor()
        journal.size = Int64(header.count)
        journal.synced()
        journal.recordsSinceSnapshot = 0
    }
}
