import PuzzleCore
import PuzzleProtocol

/// The rooms' lives on this server: restored from the data directory at
/// start-up, opened (configured or created) and stored before anyone plays
/// in them, kept bounded (absent players forgotten, created rooms that stay
/// empty closed: `RoomUpkeep`), their running clocks vouched for ahead,
/// snapshotted, their solved puzzles' replays saved; and the players who leave them, on purpose or by losing their
/// connection, when a version 2 player (who can come back with its resume
/// token) stays a while with the pieces it holds (`AwayPlayers`).
///
/// Owns the upkeep, the players away, the generator that seeds new rooms and
/// the defaults of a new room's settings. Shares the directory of rooms and
/// the store with the server (whose requests play in the rooms and journal
/// their moves); the connections that are in the rooms are the server's.
///
/// Not thread-safe: owned by the server's event loop.
final class RoomKeeper {
    /// The rooms hosted.
    let rooms: RoomDirectory
    /// Their journals, snapshots and replays.
    let store: RoomStore
    /// Absent players to forget and empty created rooms to close, in time.
    private var upkeep: RoomUpkeep
    /// Version 2 players whose connection dropped, still in their room a while.
    private var away = AwayPlayers()
    /// Seeds new rooms' layouts.
    private var rng: SeededGenerator
    /// A new room's settings where its spec names none (`lease_ms`, `hint_ms`, `max_held_pieces`).
    private let leaseMillis: Int
    private let hintMillis: Int
    private let maxHeldPieces: Int
    /// For the log: `forget_absent_s`, `idle_room_s`.
    private let forgetAbsentSeconds: Int
    private let idleRoomSeconds: Int
    private let logger: Logger
    /// Reused event list for core calls.
    private var events: [RoomEvent] = []

    init(rooms: RoomDirectory, store: RoomStore, config: ServerConfig, seed: UInt64, logger: Logger) {
        self.rooms = rooms
        self.store = store
        self.logger = logger
        rng = SeededGenerator(seed: seed)
        upkeep = RoomUpkeep(forgetAfterSeconds: config.forgetAbsentSeconds, closeAfterSeconds: config.idleRoomSeconds,
                            configured: Set(config.rooms.map(\.name)))
        leaseMillis = config.leaseMillis
        hintMillis = config.hintMillis
        maxHeldPieces = config.maxHeldPieces
        forgetAbsentSeconds = config.forgetAbsentSeconds
        idleRoomSeconds = config.idleRoomSeconds
    }

    // MARK: Opening and closing

    /// Starts restoring the rooms found in the data directory: their names
    /// are taken at once (`RoomDirectory.willLoad`) and returned in the order
    /// to load them (configured rooms first, then by name); each comes in
    /// through `adopt` once loaded (`RoomLoader`). Opens the `configured`
    /// rooms that are not on disk.
    /// - Throws: `ConfigError` when a configured room cannot be opened, a
    ///   store error when the rooms directory cannot be listed.
    func restore(configured: [RoomSpec], pictures: inout PictureLibrary, now: Int64) throws -> [String] {
        let names = try store.roomNames()
        logLoadIssues(store.loadIssues)
        rooms.willLoad(names)
        let onDisk = Set(names)
        for spec in configured where rooms[spec.name] == nil && !onDisk.contains(spec.name) {
            if case .failure(let error) = open(spec, pictures: &pictures, now: now) {
                throw ConfigError(.badRoomSpec(spec: spec.description, reason: error.message))
            }
        }
        let first = Set(configured.map(\.name))
        return names.filter { first.contains($0) } + names.filter { !first.contains($0) }
    }

    /// A room the loader read from disk: hosted from now on (with every hold
    /// released and every player away), or, when it could not be loaded, its
    /// name freed and its files kept as evidence (logged). Returns the room
    /// hosted, if any.
    @discardableResult
    func adopt(_ loaded: LoadedRoom, pictures: inout PictureLibrary) -> HostedRoom? {
        store.adopt(loaded)
        logLoadIssues(loaded.issues)
        guard let stored = loaded.room else {
            rooms.failedToLoad(loaded.name)
            if loaded.damaged, upkeep.configured.contains(loaded.name) {
                // Its files are evidence of what went wrong: not replaced by a fresh room.
                logger.error("configured room \(loaded.name) not opened: \(RoomStoreError.damagedRoom(loaded.name)) (\(store.directory)/rooms/\(loaded.name))")
            }
            return nil
        }
        var snap = stored.snapshot
        snap.state.usePictures(pictures.names)
        let spec = snap.state.spec
        let picture = pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols)
        let room = HostedRoom(name: snap.name, password: stored.password, state: snap.state, picture: picture,
                              run: UInt64.random(in: 0...UInt64.max), replay: stored.replay, history: stored.history)
        rooms.add(room)
        logger.info("restored room \(snap.name): puzzle \(snap.state.puzzleIndex), \(snap.state.correctCount)/\(snap.state.pieceCount) correct, seq \(snap.state.seq)")
        return room
    }

    private func logLoadIssues(_ issues: [RoomLoadIssue]) {
        for issue in issues {
            if issue.isDamage { logger.error("\(issue)") } else { logger.warn("\(issue)") }
        }
    }

    /// Opens a new room and stores it durably before anyone can play in it;
    /// or why not (a bad name or picture, a name taken, too many rooms, the disk).
    func open(_ r: RoomSpec, pictures: inout PictureLibrary, now: Int64) -> Result<HostedRoom, ProtocolError> {
        let settings: RoomSettings
        switch plan(r, pictures: pictures) {
        case .success(let planned): settings = planned
        case .failure(let refusal): return .failure(refusal)
        }
        let state = RoomState(settings: settings)
        do {
            try store.create(StoredRoom(snapshot: RoomSnapshot(name: r.name, state: state, picture: nil), password: r.password), now: now)
        } catch {
            return .failure(refusal(storing: r.name, error))
        }
        return .success(host(r.name, password: r.password, state: state, pictures: &pictures))
    }

    /// Starts opening a room a CREATE asked for, to be laid out and stored
    /// off the loop (`RoomCreation`): checked as `open` checks, its seed
    /// drawn, its name taken meanwhile (`ROOM_EXISTS` to anyone else, and
    /// counted against the room limit). `finishCreate` hosts it.
    func beginCreate(_ r: RoomSpec, pictures: PictureLibrary, now: Int64) -> Result<RoomCreation, ProtocolError> {
        let settings: RoomSettings
        switch plan(r, pictures: pictures) {
        case .success(let planned): settings = planned
        case .failure(let refusal): return .failure(refusal)
        }
        let files: NewRoomFiles
        do {
            files = try store.beginCreate(r.name)
        } catch {
            return .failure(refusal(storing: r.name, error))
        }
        rooms.willCreate(r.name)
        return .success(RoomCreation(name: r.name, password: r.password, settings: settings, askedPieces: r.pieces,
                                     files: files, now: now))
    }

    /// A room built and written off the loop: hosted from now on, or, when
    /// its files could not be written, refused (`STORAGE`) and its name free.
    func finishCreate(_ done: RoomCreation.Done, pictures: inout PictureLibrary) -> Result<HostedRoom, ProtocolError> {
        let name = done.creation.name
        rooms.creationEnded(name)
        switch done.result {
        case .success(let made):
            store.finishCreate(made.written)
            return .success(host(name, password: done.creation.password, state: made.state, pictures: &pictures))
        case .failure(let error):
            return .failure(refusal(storing: name, error))
        }
    }

    /// A new room's settings, once its request passes every check: a valid
    /// name not taken, room for one more, a picture the server has, a size
    /// the kind allows (a piece count cut to the picture's shape); the
    /// defaults of the server's config where the request names none, and a
    /// fresh seed.
    private func plan(_ r: RoomSpec, pictures: PictureLibrary) -> Result<RoomSettings, ProtocolError> {
        guard NameRule.isValid(r.name) else { return .failure(.badName) }
        if let refusal = rooms.refusal(ofNew: r.name) { return .failure(refusal) }
        let pictureName = r.picture
        guard pictures.contains(pictureName) else {
            return .failure(.badPicture("no picture named '\(pictureName)'; pictures: \(pictures.names.joined(separator: ", "))"))
        }
        // A piece count is cut to the picture's shape.
        var (rows, cols) = (r.rows, r.cols)
        if let count = r.pieces {
            let shape = pictures.shape(of: pictureName)
            (rows, cols) = PuzzleSpec.size(forPieces: count, aspectWidth: shape.width, aspectHeight: shape.height)
        }
        let spec: PuzzleSpec
        do {
            spec = try PuzzleSpec(kind: r.kind, rows: rows, cols: cols, rotation: r.rotation, picture: pictureName)
        } catch {
            return .failure(.core(error, name: { "\($0)" }))
        }
        return .success(RoomSettings(first: spec,
                                     leaseMillis: Int64(r.leaseMillis ?? leaseMillis),
                                     hintMillis: Int64(r.hintMillis ?? hintMillis),
                                     maxHeld: r.maxHeld ?? maxHeldPieces,
                                     seed: rng.next(),
                                     cyclesPictures: r.cyclesPictures, pictures: pictures.names, lid: r.lid, seats: r.seats,
                                     placement: r.placement ?? .own))
    }

    /// A new room, its files durable: hosted.
    private func host(_ name: String, password: String?, state: RoomState, pictures: inout PictureLibrary) -> HostedRoom {
        let spec = state.spec
        let picture = pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols)
        let room = HostedRoom(name: name, password: password, state: state, picture: picture,
                              run: UInt64.random(in: 0...UInt64.max))
        rooms.add(room)
        return room
    }

    /// Why a new room's files could not be written, for its CREATE (logged).
    private func refusal(storing name: String, _ error: RoomStoreError) -> ProtocolError {
        logger.error("cannot store room \(name): \(error)")
        if case .damagedRoom = error {
            return .storage("room '\(name)' has damaged files on the server, kept for inspection; pick another name")
        }
        return .storage("the server could not store the room (\(RoomStoreError.reason(error)))")
    }

    /// Keeps all rooms' rejoin rings within `maxBytes` together (0: no
    /// cap): each sweep counts how long each room has been quiet (its seq
    /// unchanged), and when the rings are over the cap, lets go of the
    /// quietest rooms' rings first (a busy room's players are the likeliest
    /// to blink and come back). Returns the bytes the rings hold after.
    @discardableResult
    func capRejoinMemory(maxBytes: Int) -> Int {
        var total = 0
        for room in rooms.values {
            if room.state.seq == room.seqAtSweep { room.quietSweeps += 1 } else { room.quietSweeps = 0 }
            room.seqAtSweep = room.state.seq
            total += room.recent.memoryBytes
        }
        guard maxBytes > 0, total > maxBytes else { return total }
        let before = total
        var released = 0
        for room in rooms.values.sorted(by: { ($0.quietSweeps, $1.name) > ($1.quietSweeps, $0.name) }) where total > maxBytes {
            let held = room.recent.memoryBytes
            guard held > 0 else { continue }
            room.forgetRecentEvents()
            total -= held
            released += 1
        }
        logger.info("rejoin rings over \(maxBytes >> 10) KiB (\(before >> 10) KiB): let go of \(released) quiet room(s)' rings, \(total >> 10) KiB kept")
        return total
    }

    /// Forgets players absent too long and closes created rooms empty too
    /// long (see `RoomUpkeep`). Forgetting is a durable event like a move:
    /// journaled first (a failed write leaves the player for the next
    /// sweep), then applied and sent to the room.
    func keepBounded(now: Int64) {
        let (forget, close) = upkeep.due(in: rooms.values, now: now)
        for (room, players) in forget {
            events.removeAll(keepingCapacity: true)
            room.state.planForgetting(players, at: now, into: &events)
            guard !events.isEmpty else { continue }
            do {
                try store.append(room: room.name, events: events)
            } catch {
                logger.error("room \(room.name): could not forget \(players.count) absent players (\(error)); trying again later")
                continue
            }
            room.state.apply(planned: events)
            room.broadcast(events)
            logger.info("room \(room.name): forgot \(events.count) players absent for \(forgetAbsentSeconds) s or more")
        }
        for room in close {
            do {
                if let leftover = try store.remove(room: room.name, now: now) {
                    logger.warn("room \(room.name) closed, but its files were not all deleted (\(leftover)); the next start deletes them")
                }
            } catch {
                logger.error("room \(room.name) was empty for \(idleRoomSeconds) s but could not be removed: \(error)")
                continue
            }
            rooms.remove(room.name)
            upkeep.closed(room.name)
            logger.info("closed room \(room.name): nobody in it for \(idleRoomSeconds) s")
        }
    }

    /// Someone came to the room (joined, came back, or watches): its
    /// absence and the room's emptiness count again from the next sweep.
    func visited(_ room: HostedRoom, by player: PlayerID) {
        upkeep.visited(room.name, by: player)
    }

    // MARK: Clock marks, snapshots and replays

    /// How far ahead of now a clock mark vouches for a running puzzle clock:
    /// after a crash the clock may read up to this much more than it had
    /// reached, never less. A fresh mark is written once less than half of it is left.
    static let clockMarkLead: Int64 = 2000

    /// Writes a clock mark for every room whose running clock is vouched for
    /// less than half a lead ahead. The server syncs the marks with the
    /// turn's records, before any reply: whatever play time this turn shows
    /// a client is covered, so a crash never sets the clock back below it.
    func markClocks(now: Int64) {
        for room in rooms.values where room.state.clockIsRunning && now >= room.clockMarkDue {
            let until = now + Self.clockMarkLead
            do {
                try store.markClock(room: room.name, until: until)
                room.clockMarkDue = until - Self.clockMarkLead / 2
                room.clockMarkFailing = false
            } catch {
                // Retried a second later (not every turn: a full disk would cost a failed write per turn).
                if !room.clockMarkFailing { logger.error("room \(room.name): clock mark not written (\(error)); after a crash its clock may read less") }
                room.clockMarkFailing = true
                room.clockMarkDue = now + 1000
            }
        }
    }

    /// Ends the turn for every room: leases run out are broadcast as
    /// returned pieces. Before a turn's requests are read: a KEEP or DRAG
    /// that comes after its hold's lease must not renew it (NOT_HOLDER).
    func expireLeases(now: Int64) {
        for room in rooms.values where !room.state.locks.isEmpty {
            events.removeAll(keepingCapacity: true)
            room.state.expireLeases(at: now, into: &events)
            if !events.isEmpty { room.broadcast(events) }
        }
    }

    /// The soonest a room needs the loop again: a lease running out, or a
    /// clock mark due (never before `now`).
    func nextDue(now: Int64) -> Int64 {
        var next = Int64.max
        for room in rooms.values {
            if let e = room.state.nextExpiry { next = min(next, e) }
            // (A mark never written yet is due now, not at Int64.min: a wait computed from it must not overflow.)
            if room.state.clockIsRunning { next = min(next, max(now, room.clockMarkDue)) }
        }
        return next
    }

    /// Makes the turn's journal records durable (policy `batch`) and
    /// snapshots the rooms due for one. Returns why the server must stop,
    /// or nil when the turn's replies may go out.
    ///
    /// When the records were written but syncing them failed, they were cut
    /// off (a failed fsync cannot be retried safely), though the moves are
    /// applied and their replies queued: a fresh snapshot of each room (new
    /// files, synced) keeps them after all. If even that fails, nothing of
    /// the turn may be sent.
    func commitTurn(now: Int64) -> ServerFailure? {
        let due: [String]
        do {
            due = try store.commit()
        } catch {
            guard case .syncFailed(let names, _) = error else { return ServerFailure(message: "journal commit failed: \(error)") }
            logger.error("\(error); keeping this turn's moves with a fresh snapshot of \(names.joined(separator: ", "))")
            for name in names {
                guard let room = rooms[name] else { continue }
                do {
                    try store.snapshot(room.stored, now: now)
                } catch {
                    return ServerFailure(message: "room \(name): journal sync failed and the snapshot that would keep this turn's moves failed too (\(error)); stopping without acknowledging them")
                }
            }
            return nil
        }
        for name in due {
            if let room = rooms[name] { snapshot(room, now: now) }
        }
        return nil
    }

    /// Writes a room's snapshot (which also compacts its journal). A solved
    /// puzzle's replay not written yet is written first; while it cannot be,
    /// the snapshot waits (the journal it would compact holds that puzzle's moves).
    func snapshot(_ room: HostedRoom, now: Int64) {
        guard saveUnsavedReplay(of: room) else { return }
        do {
            try store.snapshot(room.stored, now: now)
        } catch {
            logger.error("snapshot of \(room.name) failed: \(error)")
        }
    }

    /// Writes a solved puzzle's replay file and adds it to the room's history
    /// (the oldest beyond `replays_kept` go). A failed write is logged and kept
    /// for `saveUnsavedReplay`; the summary is listed meanwhile.
    func saveReplay(_ replay: PuzzleReplay, of room: HostedRoom) {
        var summary = replay
        summary.moves = []
        room.history.removeAll { $0.puzzle == replay.puzzle }
        room.history.append(summary)
        do {
            let removed = try store.saveReplay(replay, room: room.name)
            room.history.removeAll { removed.contains($0.puzzle) }
            room.unsavedReplay = nil
        } catch {
            logger.error("room \(room.name): replay of puzzle \(replay.puzzle) not written (\(error)); trying again before the next snapshot")
            room.unsavedReplay = replay
        }
        if store.replaysKept == 0 { room.history.removeAll() }
        if room.history.count > store.replaysKept { room.history.removeFirst(room.history.count - store.replaysKept) }
    }

    /// Whether the room has no solved puzzle's replay left to write (tried again now).
    private func saveUnsavedReplay(of room: HostedRoom) -> Bool {
        guard let replay = room.unsavedReplay else { return true }
        saveReplay(replay, of: room)
        return room.unsavedReplay == nil
    }

    // MARK: Players leaving and away

    /// Performs an action no player can be refused (leaving). Its durable
    /// events are journaled when the disk takes them; when it does not, the
    /// action happens anyway (a full disk must not keep anyone in a room) and
    /// the log says what a restart may not know.
    func performRegardless(_ action: Action, in room: HostedRoom, by player: PlayerID, now: Int64) {
        events.removeAll(keepingCapacity: true)
        do {
            _ = try room.plan(action, by: player, at: now, into: &events)
        } catch {
            // The core refused (a leave of a player no longer in the room, say):
            // nothing changes, but a refusal here means the server's view of
            // its players went wrong somewhere, and whoever reads the log should see it.
            return logger.warn("room \(room.name): \(action) of player \(player) refused by the rules (\(error)); nothing changed")
        }
        do {
            try store.append(room: room.name, events: events)
        } catch {
            logger.error("room \(room.name): \(action) of player \(player) not journaled (\(error)); a restart may not know it")
        }
        room.state.apply(planned: events)
        room.broadcast(events)
    }

    /// The player's connection dropped: it stays in `room` for one lease
    /// (the room's `lease`, at most `AwayPlayers.longestAway`), and for as
    /// long as it still holds a piece (nothing renews those leases): a link
    /// that blinks shows nobody a leave and a join, and coming back with its
    /// token and joining the room again picks up where it was.
    func keepAway(_ player: PlayerID, in room: HostedRoom, from host: String, now: Int64) {
        away.keep(player, in: room, from: host, now: now)
    }

    /// The player away after a dropped link, if it is.
    func awayPlayer(_ player: PlayerID) -> AwayPlayer? { away[player] }

    /// When the first stay of a player away ends (nil: nobody is away).
    var nextAwayEnd: Int64? { away.nextEnd }

    /// Ends a player's stay away, if it has one, leaving the room it is
    /// still in (a goodbye, or its name taken up again from its address by a
    /// new player: it gives its place up); returns that room.
    @discardableResult
    func endStay(of player: PlayerID, now: Int64) -> HostedRoom? {
        guard let stay = away.remove(player), stay.room.state.players[player] != nil else { return nil }
        performRegardless(.leave, in: stay.room, by: player, now: now)
        return stay.room
    }

    /// Players who dropped and did not come back within their stay, and whose
    /// holds have all ended (expired, or ended by a solve), leave now.
    func settleAway(now: Int64) {
        guard !away.isEmpty else { return }
        for (player, stay) in away.removeSettled(now: now) {
            guard stay.room.state.players[player] != nil else { continue }
            performRegardless(.leave, in: stay.room, by: player, now: now)
            logger.info("player \(player) left \(stay.room.name): did not come back within its lease")
        }
    }

    /// A player joining a room after dropping: whether it is still in that
    /// room, holds and all (then it simply takes its place again). Still
    /// away in another room, it leaves that one first.
    func returnFromAway(_ player: PlayerID, to room: HostedRoom, now: Int64) -> Bool {
        guard let stay = away.remove(player)?.room else { return false }
        if stay === room, room.state.players[player] != nil { return true }
        if stay.state.players[player] != nil { performRegardless(.leave, in: stay, by: player, now: now) }
        return false
    }

    /// Ends every stay (shutdown): those players leave their rooms.
    func endEveryStay(now: Int64) {
        for (player, stay) in away.removeAll() where stay.room.state.players[player] != nil {
            performRegardless(.leave, in: stay.room, by: player, now: now)
        }
    }
}
