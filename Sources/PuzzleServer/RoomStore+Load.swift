import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension RoomStore {
    /// Every room found on disk: its snapshot with the journal records newer
    /// than it replayed, then every hold and player released (nobody is
    /// connected after a restart). The current puzzle's elapsed time carries on
    /// from the last record, as if the server had not been down.
    ///
    /// A torn last journal line (a crash mid-write) is ignored and cut off, so
    /// that later records start on a line of their own. A snapshot that cannot
    /// be read falls back to `snapshot.prev` (with `journal.prev`). A room that
    /// cannot be loaded at all is left out. Both are listed in `loadIssues`;
    /// only a failure to list the rooms directory is thrown.
    ///
    /// Forgets any state this store held (buffered records are dropped).
    public func loadAll(now: Int64) throws(RoomStoreError) -> [StoredRoom] {
        close()
        loadIssues = []
        let roomsDirectory = roomsDirectory
        let names = try onPath(roomsDirectory) { () throws(Errno) in try Directory.entries(roomsDirectory) }
        var rooms: [StoredRoom] = []
        for name in names {
            guard NameRule.isValid(name) else {
                loadIssues.append(RoomLoadIssue(room: name, error: .invalidName(name), roomSkipped: true))
                continue
            }
            do {
                rooms.append(try loadRoom(name, now: now))
            } catch {
                loadIssues.append(RoomLoadIssue(room: name, error: error, roomSkipped: true))
            }
        }
        return rooms
    }

    private func loadRoom(_ name: String, now: Int64) throws(RoomStoreError) -> StoredRoom {
        let paths = try paths(name)
        func read(_ path: String) throws(RoomStoreError) -> [UInt8]? {
            try onPath(path) { () throws(Errno) in try FileSystem.readFileIfPresent(path) }
        }
        func warn(_ error: RoomStoreError) {
            loadIssues.append(RoomLoadIssue(room: name, error: error, roomSkipped: false))
        }

        // journal.prev matters only when falling back to snapshot.prev (its records
        // are older than the current snapshot otherwise), but it is small: always read it.
        let journalBytes = try read(paths.journal)
        let current = JournalLine.parseFile(journalBytes ?? [])
        let previous = JournalLine.parseFile(try read(paths.previousJournal) ?? [])
        for line in previous.badLines { warn(.badJournalLine(room: name, file: "journal.prev", line: line)) }
        for line in current.badLines { warn(.badJournalLine(room: name, file: "journal", line: line)) }
        let records = previous.records.map { ("journal.prev", $0.line, $0.record) }
            + current.records.map { ("journal", $0.line, $0.record) }

        var chosen: (parsed: RoomSnapshotFile.Parsed, room: StoredRoom, offset: Int64)?
        var problems: [RoomStoreError] = []
        candidates: for (path, file) in [(paths.snapshot, "snapshot"), (paths.previousSnapshot, "snapshot.prev")] {
            guard let bytes = try read(path) else { continue }
            do throws(RoomSnapshotFile.Problem) {
                let parsed = try RoomSnapshotFile.parse(bytes)
                // The last moment the store knows of maps to `now`: store time
                // continues from there, and the downtime does not count.
                let last = records.reduce(parsed.time) { max($0, $1.2.time) }
                let offset = last - now
                let room = try RoomSnapshotFile.decode(parsed, name: name, now: parsed.time - offset)
                chosen = (parsed, room, offset)
                break candidates
            } catch {
                problems.append(.corruptSnapshot(room: name, file: file, reason: error.reason))
            }
        }
        guard let chosen else {
            for problem in problems.dropFirst() { warn(problem) }
            throw problems.first ?? .noSnapshot(room: name)
        }
        for problem in problems { warn(problem) }

        var room = chosen.room
        var state = room.snapshot.state
        let snapshotSeq = state.seq
        for (file, line, record) in records where record.event.seq > state.seq {
            var event = record.event
            event.time = record.time - chosen.offset
            if case .solved(_, let elapsed) = event.body { event.time = state.startedAt + elapsed }
            guard Journal.fits(event.body, state) else {
                warn(.badJournalLine(room: name, file: file, line: line))
                continue
            }
            do { try state.restore(event) } catch {
                warn(.badJournalLine(room: name, file: file, line: line))
            }
        }
        state.releaseEverything()
        room.snapshot.state = state

        let journal = Journal(paths: paths, clockOffset: chosen.offset)
        journal.recordsSinceSnapshot = current.records.count { $0.record.event.seq > snapshotSeq }
        if let journalBytes, current.completeLength < journalBytes.count {
            try cutTornTail(paths.journal, to: current.completeLength)
            warn(.tornJournal(room: name, droppedBytes: journalBytes.count - current.completeLength))
        }
        journals[name] = journal
        return room
    }

    /// Cuts a journal back to its last complete line: otherwise the next record
    /// appended would be glued to the torn one and lost with it.
    private func cutTornTail(_ path: String, to length: Int) throws(RoomStoreError) {
        let sync = syncs
        try onPath(path) { () throws(Errno) in
            let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly))
            defer { try? fd.close() }
            try fd.truncate(to: Int64(length))
            if sync { try fd.sync() }
        }
    }
}
