import PuzzleCore
import PuzzleSystem

/// One room's open journal as the store tracks it: where whole records end,
/// how much of that is known durable, and the room's clock offset.
///
/// Records are appended with one `write` per request, as the request is
/// handled, so that a failed write (a full disk) is known before the move is
/// applied or acknowledged. The file never keeps a partial record: a failed
/// write or sync is cut back to the last good length, and the descriptor is
/// reopened (and the file checked against that length) on the next append.
final class Journal {
    let paths: RoomPaths
    /// Open for appending; nil after a failure, or before the first append.
    var descriptor: FileDescriptor?
    /// Length of the file's whole records (header included): where the next one goes.
    var size: Int64
    /// Length known durable (synced, or written under `fsync = never`).
    var syncedSize: Int64
    /// Records appended since the room's last snapshot.
    var recordsSinceSnapshot = 0
    /// Of those, records written but not yet synced.
    private(set) var unsyncedRecords = 0
    /// Store time minus server time for this room. The server clock may restart
    /// from anywhere; store time must not go backwards across restarts, so on
    /// load the offset is chosen to continue from the last recorded store time.
    var clockOffset: Int64
    /// The store time the latest clock mark vouches for (nil: none written
    /// since the server started). Carried into the fresh journal a snapshot
    /// starts, so that the mark outlives the rotation.
    var clockMarkedUntil: Int64?
    /// Reused encoding buffer.
    private var scratch: [UInt8] = []

    init(paths: RoomPaths, size: Int64, clockOffset: Int64) {
        self.paths = paths
        self.size = size
        syncedSize = size
        self.clockOffset = clockOffset
    }

    var hasUnsynced: Bool { size > syncedSize }

    func closeDescriptor() {
        try? descriptor?.close()
        descriptor = nil
    }

    /// Encodes the durable events and appends them with one write. On failure
    /// the file is cut back to where it was and nothing counts as written.
    /// - Returns: how many records were written.
    func append(_ events: some Sequence<RoomEvent>, device: StorageDevice) throws(RoomStoreError) -> Int {
        scratch.removeAll(keepingCapacity: true)
        var count = 0
        for event in events where event.body.isDurable {
            let (storeTime, overflow) = event.time.addingReportingOverflow(clockOffset)
            guard !overflow, JournalLine.storeTimes.contains(storeTime) else { throw .timeOutOfRange(room: paths.name) }
            JournalLine.encode(event, storeTime: storeTime, into: &scratch)
            count += 1
        }
        guard count > 0 else { return 0 }
        try writeScratch(device: device)
        unsyncedRecords += count
        recordsSinceSnapshot += count
        return count
    }

    /// Appends a clock mark: the room's clock may be counted as running up to
    /// server time `until`. It counts as no record (it never asks for a
    /// snapshot); syncing it is the caller's, as for records.
    func appendClockMark(until: Int64, device: StorageDevice) throws(RoomStoreError) {
        let (storeTime, overflow) = until.addingReportingOverflow(clockOffset)
        guard !overflow, JournalLine.storeTimes.contains(storeTime) else { throw .timeOutOfRange(room: paths.name) }
        scratch.removeAll(keepingCapacity: true)
        JournalLine.encodeClockMark(storeTime: storeTime, into: &scratch)
        try writeScratch(device: device)
        clockMarkedUntil = storeTime
    }

    /// Appends the encoded lines with one write; on failure the file is cut
    /// back to where it was.
    private func writeScratch(device: StorageDevice) throws(RoomStoreError) {
        let fd = try openForAppend()
        do {
            try device.write(scratch, to: fd, path: paths.journal)
        } catch {
            cut(to: size)
            throw .io(path: paths.journal, error)
        }
        size += Int64(scratch.count)
    }

    /// Makes every written record durable with `fdatasync`. On failure the
    /// unsynced records are cut off: after a failed sync the kernel may have
    /// dropped the dirty pages, so a retry could report success for data that
    /// never reaches the disk (fsyncgate); the moves must be kept another way
    /// (a fresh snapshot) or not acknowledged.
    func sync(device: StorageDevice) throws(RoomStoreError) {
        guard hasUnsynced, let fd = descriptor else { return }
        do {
            try device.dataSync(fd, path: paths.journal)
        } catch {
            cutUnsynced()
            throw .io(path: paths.journal, error)
        }
        synced()
    }

    /// The written records are durable (synced elsewhere, e.g. by `syncfs`, or
    /// not to be synced at all under `fsync = never`).
    func synced() {
        syncedSize = size
        unsyncedRecords = 0
    }

    /// Drops the records written since the last sync.
    func cutUnsynced() {
        recordsSinceSnapshot -= unsyncedRecords
        unsyncedRecords = 0
        size = syncedSize
        cut(to: syncedSize)
    }

    /// Truncates to `length` (best effort) and closes: the next append reopens
    /// the file and checks its length again, rather than trusting a descriptor
    /// whose last write went wrong.
    private func cut(to length: Int64) {
        if let fd = descriptor { try? fd.truncate(to: length) }
        closeDescriptor()
    }

    private func openForAppend() throws(RoomStoreError) -> FileDescriptor {
        if let descriptor { return descriptor }
        let path = paths.journal
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .appendExisting)
        } catch {
            // A missing journal is not recreated here: the room's files are not
            // what the store expects, and the caller refuses the move.
            throw .io(path: path, error)
        }
        do {
            let end = try fd.seekToEnd()
            // Bytes past the last whole record: a write that failed half-way and
            // could not be cut at the time. Cut them now, or refuse to append
            // after them (the next record would be glued to garbage).
            if end > size { try fd.truncate(to: size) }
            if end < size {
                // Shorter than written: someone else cut the file. Append after
                // what is there; the lost records are the loader's to report.
                size = end
                syncedSize = min(syncedSize, end)
            }
        } catch {
            try? fd.close()
            throw .io(path: path, error)
        }
        descriptor = fd
        return fd
    }
}
