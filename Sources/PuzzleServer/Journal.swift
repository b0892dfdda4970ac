import PuzzleCore
import PuzzleSystem

/// A room's journal as the store tracks it between commits: the open append
/// descriptor, the records buffered since the last commit, and the room's clock offset.
final class Journal {
    let paths: RoomPaths
    /// Open for appending once the first commit needs it.
    var descriptor: FileDescriptor?
    /// The journal file's size after the last successful write: a failed write
    /// is cut back to it so that a retry does not leave half a line behind.
    var size: Int64 = 0
    /// Encoded records not yet written.
    var pending: [UInt8] = []
    /// How many records `pending` holds.
    var pendingCount = 0
    /// Records written to the journal since the room's last snapshot.
    var recordsSinceSnapshot = 0
    /// Store time minus server time for this room. The server clock may restart
    /// from anywhere; store time must not go backwards across restarts, so on
    /// load the offset is chosen to continue from the last recorded store time.
    var clockOffset: Int64

    init(paths: RoomPaths, clockOffset: Int64) {
        self.paths = paths
        self.clockOffset = clockOffset
    }

    func buffer(_ event: RoomEvent) {
        JournalLine.encode(event, storeTime: event.time + clockOffset, into: &pending)
        pendingCount += 1
    }

    func closeDescriptor() {
        try? descriptor?.close()
        descriptor = nil
    }

    /// Records written by `write()` and not yet confirmed durable.
    private var unsynced: [UInt8] = []
    private var unsyncedCount = 0

    /// Appends the buffered records with one write and syncs them if asked.
    /// On failure the file is cut back to its previous size and the records
    /// stay buffered.
    /// - Returns: how many records were written.
    func flush(sync: Bool) throws(RoomStoreError) -> Int {
        let count = try write(sync: sync)
        guard count > 0 else { return 0 }
        if sync {
            do {
                try descriptor?.dataSync()
            } catch {
                syncFailed()
                throw .io(path: paths.journal, error)
            }
        }
        confirm()
        return count
    }

    /// Appends the buffered records with one write, without syncing; the store
    /// then syncs every journal written this turn at once and calls `confirm()`
    /// (or `syncFailed()`). `sync` says whether a new journal's name must be
    /// made durable. On a failed write the file is cut back and the records
    /// stay buffered.
    /// - Returns: how many records were written.
    func write(sync: Bool) throws(RoomStoreError) -> Int {
        guard !pending.isEmpty else { return 0 }
        let fd = try openForAppend(sync: sync)
        do {
            try fd.writeAll(pending)
        } catch {
            // After a failed write the tail is of unknown state: cut it and
            // reopen next time, rather than append after garbage.
            try? fd.truncate(to: size)
            closeDescriptor()
            throw .io(path: paths.journal, error)
        }
        size += Int64(pending.count)
        let count = pendingCount
        unsynced += pending
        unsyncedCount += count
        pending.removeAll(keepingCapacity: true)
        pendingCount = 0
        return count
    }

    /// The records of the last `write()` are durable.
    func confirm() {
        recordsSinceSnapshot += unsyncedCount
        unsynced.removeAll(keepingCapacity: true)
        unsyncedCount = 0
    }

    /// Syncing failed: whether the written records reached the disk is unknown,
    /// so cut them off and buffer them again for the next commit.
    func syncFailed() {
        if let fd = descriptor { try? fd.truncate(to: size - Int64(unsynced.count)) }
        size -= Int64(unsynced.count)
        pending = unsynced + pending
        pendingCount += unsyncedCount
        unsynced.removeAll()
        unsyncedCount = 0
        closeDescriptor()
    }

    private func openForAppend(sync: Bool) throws(RoomStoreError) -> FileDescriptor {
        if let descriptor { return descriptor }
        let path = paths.journal
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .appendExisting)
        } catch where error == .noSuchFile {
            // A crash between a snapshot's journal rotation steps leaves no journal:
            // create it, and make its name durable before trusting records in it.
            fd = try onPath(path) { () throws(Errno) in try FileDescriptor.open(path, .appendNew) }
            if sync { try onPath(paths.directory) { () throws(Errno) in try Directory.sync(paths.directory) } }
        } catch {
            throw .io(path: path, error)
        }
        do {
            size = try fd.seekToEnd()
        } catch {
            try? fd.close()
            throw .io(path: path, error)
        }
        descriptor = fd
        return fd
    }
}
