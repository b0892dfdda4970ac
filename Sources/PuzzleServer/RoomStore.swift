import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Keeps rooms durable: a snapshot per room plus a journal of the durable
/// events (placed, swapped, solved, next) since that snapshot.
///
/// The server records each turn's events, calls `commit()` once per event-loop
/// turn before sending any reply of that turn, and takes a snapshot when
/// `commit()` says a journal has grown long. Every file change is ordered so
/// that a `kill -9` (or, unless the policy is `never`, a power cut) at any
/// point loses no committed record and applies none twice:
/// - a snapshot is written to a temporary file, synced, and renamed into place;
///   the previous one is kept as `snapshot.prev`;
/// - the journal is rotated to `journal.prev` only after the new snapshot is
///   durable, so `snapshot.prev` + `journal.prev` + `journal` is a complete history;
/// - replay applies only records newer than the snapshot's sequence number.
///
/// Not thread-safe: owned by the server's event loop.
public final class RoomStore {
    public let directory: String
    public let fsync: FsyncPolicy
    /// Records after which `commit()` asks for a snapshot (0: never).
    public let snapshotEvery: Int
    let roomsDirectory: String
    var journals: [String: Journal] = [:]
    /// Rooms with buffered records, in first-record order.
    var dirty: [String] = []
    /// What the last `loadAll` met: rooms skipped and warnings about loaded ones.
    public internal(set) var loadIssues: [RoomLoadIssue] = []

    /// Opens (creating if missing) a store in `directory`, with rooms under `<directory>/rooms`.
    public init(directory: String, fsync: FsyncPolicy, snapshotEvery: Int) throws(RoomStoreError) {
        self.directory = directory
        self.fsync = fsync
        self.snapshotEvery = max(0, snapshotEvery)
        roomsDirectory = directory + "/rooms"
        let rooms = roomsDirectory
        let created = try onPath(rooms) { () throws(Errno) in try Directory.createAll(rooms) }
        if created && fsync != .never {
            try onPath(directory) { () throws(Errno) in try Directory.sync(directory) }
        }
    }

    deinit {
        for journal in journals.values { journal.closeDescriptor() }
    }

    /// Closes every open journal. Buffered, uncommitted records are dropped.
    public func close() {
        for journal in journals.values { journal.closeDescriptor() }
        journals.removeAll()
        dirty.removeAll()
    }

    var syncs: Bool { fsync != .never }

    /// Registers a new room: writes its first snapshot durably and an empty
    /// journal. Any files left by an earlier room of the same name are removed
    /// first, the snapshots before the journals, so that a crash part-way
    /// leaves either the old room whole or no room, never the old journal
    /// replayed onto the new room.
    public func create(_ room: StoredRoom, now: Int64) throws(RoomStoreError) {
        let paths = try paths(room.name)
        let roomsDirectory = roomsDirectory
        let created = try onPath(paths.directory) { () throws(Errno) in try Directory.createAll(paths.directory) }
        if created && syncs {
            try onPath(roomsDirectory) { () throws(Errno) in try Directory.sync(roomsDirectory) }
        }
        if let old = journals.removeValue(forKey: room.name) { old.closeDescriptor() }
        dirty.removeAll { $0 == room.name }
        for path in [paths.previousSnapshot, paths.snapshot, paths.temporarySnapshot, paths.previousJournal, paths.journal] {
            try onPath(path) { () throws(Errno) in try FileSystem.removeFile(path, ignoringMissing: true) }
        }
        let journal = Journal(paths: paths, clockOffset: 0)
        journals[room.name] = journal
        try writeSnapshot(room, now: now, journal: journal)
    }

    /// Buffers a room's durable events for the journal; the others are ignored.
    /// Cheap: no system call. Events must come in the room's sequence order, for
    /// a room created or loaded by this store (else `commit()` fails for it).
    public func record(room: String, events: some Sequence<RoomEvent>) {
        var journal: Journal?
        for event in events where event.body.isDurable {
            if journal == nil { journal = self.journal(for: room) }
            if journal!.pending.isEmpty { dirty.append(room) }
            journal!.buffer(event)
        }
    }

    /// Writes every room's buffered records (one write per journal) and, unless
    /// the policy is `never`, makes them durable before returning: `fdatasync`
    /// when one journal was written, one `syncfs` when several were (the
    /// journals live on one file system, under the data directory).
    /// Call it before sending the replies the records acknowledge.
    ///
    /// A room whose write fails keeps its records buffered (a later commit
    /// retries them); the other rooms are still committed, then the first
    /// failure is thrown.
    /// - Returns: the rooms written to whose journals now hold at least
    ///   `snapshotEvery` records since their last snapshot.
    public func commit() throws(RoomStoreError) -> [String] {
        guard !dirty.isEmpty else { return [] }
        var failure: RoomStoreError?
        var failed: [String] = []
        var written: [(name: String, journal: Journal)] = []
        for name in dirty {
            guard let journal = journals[name] else { continue }
            // `record` cannot throw: a name that would leave the rooms directory
            // is refused here, and its records dropped.
            guard NameRule.isValid(name) else {
                journals[name] = nil
                if failure == nil { failure = .invalidName(name) }
                continue
            }
            do {
                if try journal.write(sync: syncs) > 0 { written.append((name, journal)) }
            } catch {
                failed.append(name)
                if failure == nil { failure = error }
            }
        }
        if syncs, let first = written.first?.journal.descriptor {
            // One journal: fdatasync it. Several (many rooms moved this turn):
            // one syncfs makes them all durable with a single file-system commit,
            // where one fdatasync each would cost one commit each.
            do {
                if written.count == 1 { try first.dataSync() } else { try first.syncFileSystem() }
            } catch {
                for (name, journal) in written {
                    journal.syncFailed()
                    failed.append(name)
                }
                if failure == nil { failure = .io(path: written[0].journal.paths.journal, error) }
                written.removeAll()
            }
        }
        var due: [String] = []
        for (name, journal) in written {
            journal.confirm()
            if snapshotEvery > 0 && journal.recordsSinceSnapshot >= snapshotEvery { due.append(name) }
        }
        dirty = failed
        if let failure { throw failure }
        return due
    }

    /// Writes a snapshot of the room and starts a fresh journal. Records still
    /// buffered for the room are committed to the old journal first.
    /// Durable on return unless the policy is `never`.
    public func snapshot(_ room: StoredRoom, now: Int64) throws(RoomStoreError) {
        _ = try paths(room.name)
        try writeSnapshot(room, now: now, journal: journal(for: room.name))
    }

    func journal(for room: String) -> Journal {
        if let journal = journals[room] { return journal }
        let journal = Journal(paths: RoomPaths(roomsDirectory: roomsDirectory, name: room), clockOffset: 0)
        journals[room] = journal
        return journal
    }

    /// The snapshot protocol; every step leaves a loadable, complete history:
    /// 0. commit the room's buffered records to the current journal;
    /// 1. write and sync `snapshot.tmp`;
    /// 2. rename `snapshot` to `snapshot.prev` (until step 3 the loader falls back
    ///    to it, and `journal` still holds everything after it);
    /// 3. rename `snapshot.tmp` to `snapshot`, sync the directory: the new
    ///    snapshot is durable; `journal`'s records are all covered by it;
    /// 4. rename `journal` to `journal.prev` (what `snapshot.prev` needs), create
    ///    an empty `journal`, sync the directory.
    private func writeSnapshot(_ room: StoredRoom, now: Int64, journal: Journal) throws(RoomStoreError) {
        let paths = journal.paths
        let sync = syncs
        let bytes = try RoomSnapshotFile.encode(room, now: now, storeTime: now + journal.clockOffset)
        // Buffered records go to the old journal first, even though the snapshot
        // covers them: if the new snapshot is ever unreadable, the fallback
        // (snapshot.prev + journal.prev) needs them.
        _ = try journal.flush(sync: sync)
        dirty.removeAll { $0 == room.name }
        try onPath(paths.temporarySnapshot) { () throws(Errno) in
            try FileSystem.writeFile(paths.temporarySnapshot, bytes, sync: sync)
        }
        try onPath(paths.snapshot) { () throws(Errno) in
            try FileSystem.renameIfPresent(paths.snapshot, to: paths.previousSnapshot)
            try FileSystem.rename(paths.temporarySnapshot, to: paths.snapshot)
            if sync { try Directory.sync(paths.directory) }
        }
        journal.closeDescriptor()
        journal.recordsSinceSnapshot = 0
        try onPath(paths.journal) { () throws(Errno) in
            try FileSystem.renameIfPresent(paths.journal, to: paths.previousJournal)
            let fd = try FileDescriptor.open(paths.journal, .appendNew)
            journal.descriptor = fd
            journal.size = 0
            if sync { try Directory.sync(paths.directory) }
        }
    }
}
