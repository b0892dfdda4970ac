import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// A new room's files, written in the order `RoomStore.create` promises: an
/// empty journal (`after=0`), the room as created (`snapshot.origin`), then
/// its first snapshot (written aside, synced, renamed into place). Made by
/// `RoomStore.beginCreate` on the loop; `write` touches only the room's own
/// directory (and syncs the rooms directory when it made it), so it may run
/// on a worker's thread while the loop goes on (issue 31: a 100x100's
/// snapshot encoded and three files synced held the loop 3 ms a CREATE).
struct NewRoomFiles: Sendable {
    let paths: RoomPaths
    let roomsDirectory: String
    let sync: Bool
    let device: StorageDevice

    /// What `RoomStore.finishCreate` needs: the journal just written.
    struct Written: Sendable {
        let paths: RoomPaths
        let journalSize: Int64
    }

    /// Removes leftovers of an earlier creation or an earlier room of the
    /// name (snapshots before journals: a crash part-way never leaves an old
    /// journal beside the new room's snapshot; its replays too), then writes
    /// the room's files.
    func write(_ room: StoredRoom, now: Int64) throws(RoomStoreError) -> Written {
        let paths = paths
        let roomsDirectory = roomsDirectory
        let sync = sync
        let created = try onPath(paths.directory) { () throws(Errno) in try Directory.createAll(paths.directory) }
        if created && sync {
            try onPath(roomsDirectory) { () throws(Errno) in try Directory.sync(roomsDirectory) }
        }
        for path in [paths.previousSnapshot, paths.snapshot, paths.temporarySnapshot, paths.originSnapshot,
                     paths.previousJournal, paths.journal, paths.temporaryJournal] {
            try onPath(path) { () throws(Errno) in try FileSystem.removeFile(path, ignoringMissing: true) }
        }
        // An earlier room's replays are not this room's.
        for puzzle in try RoomStore.replayPuzzles(paths) {
            let path = RoomStore.replayPath(paths, puzzle: puzzle)
            try onPath(path) { () throws(Errno) in try FileSystem.removeFile(path, ignoringMissing: true) }
        }
        let header = JournalLine.header(after: room.snapshot.state.seq)
        let bytes = try RoomSnapshotFile.encode(room, now: now, storeTime: now)
        let device = device
        try onPath(paths.journal) { () throws(Errno) in try device.writeFile(paths.journal, header, sync: sync) }
        try onPath(paths.originSnapshot) { () throws(Errno) in try device.writeFile(paths.originSnapshot, bytes, sync: sync) }
        try onPath(paths.snapshot) { () throws(Errno) in
            try device.writeFile(paths.temporarySnapshot, bytes, sync: sync)
            try FileSystem.rename(paths.temporarySnapshot, to: paths.snapshot)
            if sync { try Directory.sync(paths.directory) }
        }
        return Written(paths: paths, journalSize: Int64(header.count))
    }
}
