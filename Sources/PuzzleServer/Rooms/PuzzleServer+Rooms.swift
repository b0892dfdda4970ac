import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension PuzzleServer {
    /// Restores every room found in the data directory (with every hold released
    /// and every player gone), then opens configured rooms not already there.
    func restoreRooms() throws {
        let restored = try store.loadAll(now: now)
        for issue in store.loadIssues {
            if issue.isDamage { logger.error("\(issue)") } else { logger.warn("\(issue)") }
        }
        for stored in restored {
            var snap = stored.snapshot
            snap.state.usePictures(pictures.names)
            let spec = snap.state.spec
            let picture = pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols)
            rooms.add(HostedRoom(name: snap.name, password: stored.password, state: snap.state, picture: picture,
                                 run: UInt64.random(in: 0...UInt64.max), replay: stored.replay, history: stored.history))
            logger.info("restored room \(snap.name): puzzle \(snap.state.puzzleIndex), \(snap.state.correctCount)/\(snap.state.pieceCount) correct, seq \(snap.state.seq)")
        }
        for spec in config.rooms where rooms[spec.name] == nil {
            // Its files are evidence of what went wrong: not replaced by a fresh room.
            guard !store.damagedRooms.contains(spec.name) else {
                logger.error("configured room \(spec.name) not opened: \(RoomStoreError.damagedRoom(spec.name)) (\(store.directory)/rooms/\(spec.name))")
                continue
            }
            if case .failure(let error) = openRoom(spec) {
                throw ConfigError(.badRoomSpec(spec: spec.description, reason: error.message))
            }
        }
    }

    func createRoom(_ request: RoomSpec, for conn: Connection) {
        switch openRoom(request) {
        case .success(let room):
            logger.info("\(conn.label) created room \(room.name)")
            conn.send(.created(room: room.name))
        case .failure(let error):
            reply(conn, error: error)
        }
    }

    /// Opens a new room and stores it durably before anyone can play in it.
    func openRoom(_ r: RoomSpec) -> Result<HostedRoom, ProtocolError> {
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
        let settings = RoomSettings(first: spec,
                                    leaseMillis: Int64(r.leaseMillis ?? config.leaseMillis),
                                    hintMillis: Int64(r.hintMillis ?? config.hintMillis),
                                    maxHeld: r.maxHeld ?? config.maxHeldPieces,
                                    seed: rng.next(),
                                    cyclesPictures: r.cyclesPictures, pictures: pictures.names, lid: r.lid, seats: r.seats)
        let state = RoomState(settings: settings)
        let picture = pictures.terminalPicture(pictureName, rows: spec.rows, cols: spec.cols)
        let room = HostedRoom(name: r.name, password: r.password, state: state, picture: picture,
                              run: UInt64.random(in: 0...UInt64.max))
        do {
            try store.create(StoredRoom(snapshot: RoomSnapshot(name: r.name, state: state, picture: nil), password: r.password), now: now)
        } catch {
            logger.error("cannot store room \(r.name): \(error)")
            if case .damagedRoom = error {
                return .failure(.storage("room '\(r.name)' has damaged files on the server, kept for inspection; pick another name"))
            }
            return .failure(.storage("the server could not store the room (\(Self.storageReason(error)))"))
        }
        rooms.add(room)
        return .success(room)
    }

    /// Forgets players absent too long and closes created rooms empty too
    /// long (see `RoomUpkeep`). Forgetting is a durable event like a move:
    /// journaled first (a failed write leaves the player for the next
    /// sweep), then applied and sent to the room.
    func keepRoomsBounded() {
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
            logger.info("room \(room.name): forgot \(events.count) players absent for \(config.forgetAbsentSeconds) s or more")
        }
        for room in close {
            do {
                if let leftover = try store.remove(room: room.name, now: now) {
                    logger.warn("room \(room.name) closed, but its files were not all deleted (\(leftover)); the next start deletes them")
                }
            } catch {
                logger.error("room \(room.name) was empty for \(config.idleRoomSeconds) s but could not be removed: \(error)")
                continue
            }
            rooms.remove(room.name)
            upkeep.closed(room.name)
            logger.info("closed room \(room.name): nobody in it for \(config.idleRoomSeconds) s")
        }
    }

    /// Writes a room's snapshot (which also compacts its journal). A solved
    /// puzzle's replay not written yet is written first; while it cannot be,
    /// the snapshot waits (the journal it would compact holds that puzzle's moves).
    func snapshot(_ room: HostedRoom) {
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
    func saveUnsavedReplay(of room: HostedRoom) -> Bool {
        guard let replay = room.unsavedReplay else { return true }
        saveReplay(replay, of: room)
        return room.unsavedReplay == nil
    }
}
