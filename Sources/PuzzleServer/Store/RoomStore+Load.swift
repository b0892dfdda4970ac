import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension RoomStore {
    /// Every room found on disk: its snapshot with the journal records newer
    /// than it replayed, then every hold released and every player away (nobody
    /// is connected after a restart; their counters are kept). The puzzle clock
    /// stands at the play time of the last record and runs again when a player
    /// comes: the downtime does not count and nothing is rewound.
    ///
    /// A torn last journal line (a crash mid-write) is cut off, so that later
    /// records start on a line of their own. Damage is handled so that no
    /// evidence is destroyed and no more than the damaged part is lost:
    /// - a snapshot that cannot be read, or holds a value out of range, is
    ///   skipped for `snapshot.prev` (with `journal.prev`), and failing that
    ///   for `snapshot.origin` when the journals go back to the room's creation;
    ///   once the room is loaded, it is moved aside as `<file>.damaged-<unix time>`;
    /// - a journal line that fails its checksum, does not decode, or does not
    ///   fit the room is skipped, and the journal is copied aside the same way;
    /// - a missing journal is reported (moves after the snapshot may be lost);
    /// - a room loaded from damaged files gets a fresh snapshot at once, so
    ///   that it carries on from clean files.
    /// A room that cannot be loaded at all is left out and its files are left
    /// untouched; its name goes into `damagedRooms`, so that `create` does not
    /// replace them. Everything is listed in `loadIssues`; only a failure to
    /// list the rooms directory is thrown.
    public func loadAll(now: Int64) throws(RoomStoreError) -> [StoredRoom] {
        close()
        loadIssues = []
        damagedRooms = []
        var rooms: [StoredRoom] = []
        for name in try roomNames() {
            let loaded = load(name, now: now)
            adopt(loaded)
            if let room = loaded.room { rooms.append(room) }
        }
        return rooms
    }

    /// The names of the rooms on disk, sorted, to `load` one by one; a name
    /// that breaks the name rule is left out (and listed in `loadIssues`).
    public func roomNames() throws(RoomStoreError) -> [String] {
        let roomsDirectory = roomsDirectory
        let names = try onPath(roomsDirectory) { () throws(Errno) in try Directory.entries(roomsDirectory) }
        var valid: [String] = []
        for name in names.sorted() {
            if NameRule.isValid(name) {
                valid.append(name)
            } else {
                loadIssues.append(RoomLoadIssue(room: name, error: .invalidName(name), roomSkipped: true))
            }
        }
        return valid
    }

    /// One room loaded as `loadAll` loads each (see there), handed out with
    /// its open journal and what its loading met, for `adopt`: this store
    /// keeps none of it. A background loader calls this on a store of its
    /// own, which touches no other room's files, and hands the result to the
    /// loop's store.
    public func load(_ name: String, now: Int64) -> LoadedRoom {
        let before = loadIssues.count
        var loaded = LoadedRoom(name: name)
        do {
            loaded.room = try loadRoom(name, now: now)
        } catch {
            loadIssues.append(RoomLoadIssue(room: name, error: error, roomSkipped: true))
            loaded.damaged = true
        }
        loaded.issues = Array(loadIssues[before...])
        loadIssues.removeSubrange(before...)
        loaded.journal = journals.removeValue(forKey: name)
        return loaded
    }

    /// Takes over a room `load` loaded (here or on another store of the same
    /// directory): its journal, its issues, and its name among the damaged
    /// rooms if it could not be loaded.
    public func adopt(_ loaded: LoadedRoom) {
        loadIssues += loaded.issues
        if loaded.damaged { damagedRooms.insert(loaded.name) }
        if let journal = loaded.journal {
            journals[loaded.name]?.closeDescriptor()
            journals[loaded.name] = journal
        }
    }

    /// One room's files, read once; the fallback snapshots only when needed.
    private struct RoomFiles {
        var snapshot: [UInt8]?
        var journal: [UInt8]?
        var previousJournal: [UInt8]?
        var previousSnapshot: [UInt8]?
        var originSnapshot: [UInt8]?
        var fallbacksRead = false

        mutating func readFallbacks(_ paths: RoomPaths, _ read: (String) throws(RoomStoreError) -> [UInt8]?) throws(RoomStoreError) {
            guard !fallbacksRead else { return }
            fallbacksRead = true
            previousSnapshot = try read(paths.previousSnapshot)
            originSnapshot = try read(paths.originSnapshot)
        }
    }

    private func loadRoom(_ name: String, now: Int64) throws(RoomStoreError) -> StoredRoom? {
        let paths = try paths(name)
        func read(_ path: String) throws(RoomStoreError) -> [UInt8]? {
            try onPath(path) { () throws(Errno) in try FileSystem.readFileIfPresent(path) }
        }
        var issues: [RoomStoreError] = []
        // The fallbacks are read only when `snapshot` is missing or turns out
        // damaged: a 100x100's three snapshots are 850 KB, one is enough.
        var files = RoomFiles(snapshot: try read(paths.snapshot), journal: try read(paths.journal),
                              previousJournal: try read(paths.previousJournal))
        if files.snapshot == nil { try files.readFallbacks(paths, read) }
        let current = JournalLine.parseFile(files.journal ?? [])
        let previous = JournalLine.parseFile(files.previousJournal ?? [])

        if files.snapshot == nil && files.previousSnapshot == nil && files.originSnapshot == nil {
            guard current.records.isEmpty && previous.records.isEmpty && current.badLines.isEmpty && previous.badLines.isEmpty else {
                throw .noSnapshot(room: name)
            }
            // A creation that stopped before its first snapshot: nothing was
            // ever played here, so there is nothing to keep.
            for path in [paths.journal, paths.previousJournal, paths.temporaryJournal, paths.temporarySnapshot] {
                try onPath(path) { () throws(Errno) in try FileSystem.removeFile(path, ignoringMissing: true) }
            }
            try? Directory.remove(paths.directory)
            loadIssues.append(RoomLoadIssue(room: name, error: .unfinishedRoomRemoved(room: name), roomSkipped: false))
            return nil
        }

        var damagedJournals: Set<String> = []
        for (line, reason) in previous.badLines {
            issues.append(.badJournalLine(room: name, file: "journal.prev", line: line, reason: reason))
            damagedJournals.insert("journal.prev")
        }
        for (line, reason) in current.badLines {
            issues.append(.badJournalLine(room: name, file: "journal", line: line, reason: reason))
            damagedJournals.insert("journal")
        }
        let lastClockMark = [previous.lastClockMark, current.lastClockMark].compactMap { $0 }.max()
        let allRecords = previous.records.map { ("journal.prev", $0.line, $0.record) }
            + current.records.map { ("journal", $0.line, $0.record) }
        // The origin needs every record since creation: journal.prev's if it
        // starts there, else the journal's alone if that one does.
        let originRecords: [(String, Int, JournalLine)]? = previous.after == 0 ? allRecords
            : current.after == 0 ? current.records.map { ("journal", $0.line, $0.record) } : nil

        var chosen: (file: String, room: StoredRoom, offset: Int64, records: [(String, Int, JournalLine)])?
        var damagedSnapshots: [String] = []
        var problems: [RoomStoreError] = []
        for file in ["snapshot", "snapshot.prev", "snapshot.origin"] {
            if file != "snapshot" { try files.readFallbacks(paths, read) }
            let found: (bytes: [UInt8]?, records: [(String, Int, JournalLine)]?) = switch file {
            case "snapshot": (files.snapshot, allRecords)
            case "snapshot.prev": (files.previousSnapshot, allRecords)
            default: (files.originSnapshot, originRecords)
            }
            guard let bytes = found.bytes, let records = found.records else { continue }
            let candidate = (file: file, bytes: bytes, records: records)
            do throws(RoomSnapshotFile.Problem) {
                let parsed = try RoomSnapshotFile.parse(candidate.bytes)
                // The last moment the store knows of maps to `now`: store time
                // continues from there, and the downtime does not count.
                // Clock marks count too: the clock ran (and clients were shown
                // it running) up to the latest of them.
                let last = candidate.records.reduce(max(parsed.time, lastClockMark ?? parsed.time)) { max($0, $1.2.time) }
                let (offset, o1) = last.subtractingReportingOverflow(now)
                let (snapshotNow, o2) = parsed.time.subtractingReportingOverflow(offset)
                guard !o1, !o2 else { throw RoomSnapshotFile.Problem(reason: "time out of range") }
                let room = try RoomSnapshotFile.decode(parsed, name: name, now: snapshotNow)
                chosen = (candidate.file, room, offset, candidate.records)
                break
            } catch {
                problems.append(.corruptSnapshot(room: name, file: candidate.file, reason: error.reason))
                damagedSnapshots.append(candidate.file)
            }
        }
        guard let chosen else {
            for problem in problems.dropFirst() { loadIssues.append(RoomLoadIssue(room: name, error: problem, roomSkipped: false)) }
            throw problems.first ?? .noSnapshot(room: name)
        }
        issues += problems
        if chosen.file == "snapshot.origin" { issues.append(.rebuiltFromOrigin(room: name)) }

        var room = chosen.room
        var state = room.snapshot.state
        let snapshotSeq = state.seq
        // The replay carries on from the snapshot's record of the puzzle:
        // every move the journal replays is recorded as it was live.
        var recorder = ReplayRecorder(startOf: state)
        if let replay = room.replay, replay.puzzle == state.puzzleIndex { recorder = ReplayRecorder(replay: replay) }
        var solvedHere: [PuzzleReplay] = []
        for (file, line, record) in chosen.records where record.event.seq > state.seq {
            var event = record.event
            let (time, overflow) = record.time.subtractingReportingOverflow(chosen.offset)
            event.time = time
            let fits = !overflow
            if fits && Journal.fits(event.body, state) {
                if let solved = recorder.observe(event, before: state) { solvedHere.append(solved) }
                // `restore` refuses nothing once the record fits (and is newer).
                if (try? state.restore(event)) != nil { continue }
            }
            issues.append(.badJournalLine(room: name, file: file, line: line, reason: "does not fit the room"))
            damagedJournals.insert(file)
        }
        room.replay = recorder.replay
        room.history = try loadHistory(paths)
        // A solve the journal holds whose replay file was never written (a
        // crash between the two, a full disk then): written now.
        if recorder.replay.isSolved, !solvedHere.contains(where: { $0.puzzle == recorder.replay.puzzle }) {
            solvedHere.append(recorder.replay)
        }
        let keptPuzzles = Set(room.history.map(\.puzzle))
        for solved in solvedHere where !keptPuzzles.contains(solved.puzzle) && replaysKept > 0 {
            do {
                try saveReplay(solved, room: name)
            } catch {
                loadIssues.append(RoomLoadIssue(room: name, error: error, roomSkipped: false))
            }
        }
        if solvedHere.contains(where: { !keptPuzzles.contains($0.puzzle) }) { room.history = try loadHistory(paths) }
        // Nobody is connected after a restart: every player is away, with their
        // counters kept, and the puzzle clock pauses at the last moment the
        // store knows of (mapped to `now`), so the downtime does not count.
        let sessionsEnded = !state.players.isEmpty
        state.endSessions(at: now)
        room.snapshot.state = state

        if files.journal == nil { issues.append(.journalMissing(room: name, snapshotSeq: snapshotSeq)) }
        if let bytes = files.journal, current.completeLength < bytes.count {
            try cutTornTail(paths.journal, to: current.completeLength)
            loadIssues.append(RoomLoadIssue(room: name, error: .tornJournal(room: name, droppedBytes: bytes.count - current.completeLength),
                                            roomSkipped: false))
        }
        let journal = Journal(paths: paths, size: Int64(current.completeLength), clockOffset: chosen.offset)
        journal.recordsSinceSnapshot = current.records.count { $0.record.event.seq > snapshotSeq }
        journals[name] = journal

        // Evidence first: every damaged file kept aside before anything is rewritten.
        for file in damagedSnapshots {
            issues.append(keepAside(room: name, file: file, directory: paths.directory, move: true))
        }
        for file in damagedJournals.sorted() {
            let bytes = file == "journal" ? files.journal : files.previousJournal
            issues.append(keepAside(room: name, file: file, directory: paths.directory, move: false, bytes: bytes ?? []))
        }
        for issue in issues { loadIssues.append(RoomLoadIssue(room: name, error: issue, roomSkipped: false)) }
        // A damaged room, or one whose journal predates checksums, carries on
        // from a fresh snapshot and a checksummed journal.
        let legacy = files.journal != nil && current.version < JournalLine.version
        // Players who were in the room when the server stopped left then, with
        // no record of it: a fresh snapshot says so (they are away, the clock
        // paused), so that the downtime never counts as play time.
        if !issues.isEmpty || legacy || sessionsEnded {
            do {
                try writeSnapshot(room, now: now, journal: journal)
            } catch {
                loadIssues.append(RoomLoadIssue(room: name, error: .repairNotWritten(room: name, reason: "\(error)"), roomSkipped: false))
            }
        }
        return room
    }

    /// Keeps a damaged file as `<file>.damaged-<unix time>` (another suffix if
    /// taken): moved when nothing needs it any more, else copied.
    private func keepAside(room: String, file: String, directory: String, move: Bool, bytes: [UInt8] = []) -> RoomStoreError {
        let source = directory + "/" + file
        let stamp = WallClock.nowMilliseconds / 1000
        var name = "\(file).damaged-\(stamp)"
        var n = 1
        while (try? FileSystem.readFileIfPresent(directory + "/" + name)) != nil {
            n += 1
            name = "\(file).damaged-\(stamp)-\(n)"
        }
        let target = directory + "/" + name
        do {
            if move {
                // A link then an unlink never replaces an existing file, as a rename could.
                try FileSystem.link(source, to: target)
                try FileSystem.removeFile(source)
            } else {
                try device.writeFile(target, bytes, sync: syncs)
            }
            if syncs { try Directory.sync(directory) }
        } catch {
            return .damagedFileNotKept(room: room, file: file, reason: "\(error)")
        }
        return .damagedFileKept(room: room, file: file, copy: name)
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

/// One room as `RoomStore.load` read it: the room (nil when there was
/// nothing to keep, or it could not be loaded), its journal open for
/// appends, what its loading met, and whether its files are damaged beyond
/// loading (kept as evidence: the name is refused to `create`).
///
/// Made on a loader's thread and handed to the loop's once: nothing else
/// holds its journal meanwhile.
public struct LoadedRoom: @unchecked Sendable {
    public let name: String
    public var room: StoredRoom?
    var journal: Journal?
    public var issues: [RoomLoadIssue] = []
    public var damaged = false

    init(name: String) {
        self.name = name
    }

    /// For a room loaded and never taken over (the server stopped first).
    func closeJournal() {
        journal?.closeDescriptor()
    }
}
