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

    /// Appends the buffered records with one write and syncs them if asked.
    /// On failure the file is cut back to its previous size and the records
    /// stay buffered.
    /// - Returns: how many records were written.
    func flush(sync: Bool) throws(RoomStoreError) -> Int {
        guard !pending.isEmpty else { return 0 }
        let fd = try openForAppend(sync: sync)
        do {
            try fd.writeAll(pending)
            if sync { try fd.dataSync() }
        } catch {
            // After a failed write or fsync the tail is of unknown state: cut it
            // and reopen next time, rather than append after garbage.
            try? fd.truncate(to: size)
            closeDescriptor()
            throw .io(path: paths.journal, error)
        }
        size += Int64(pending.count)
        let count = pendingCount
        pending.removeAll(keepingCapacity: true)
        pendingCount = 0
        recordsSinceSnapshot += count
        return count
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
