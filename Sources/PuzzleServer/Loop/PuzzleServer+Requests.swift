import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension PuzzleServer {
    /// Answers one request with exactly one reply (`OK`, `ERR` or `PONG`),
    /// preceded by any `S` state lines that belong to it.
    func handle(_ request: Request, from conn: Connection) {
        switch request {
        case .ping(let token):
            conn.send(.pong(token: token))
        case .help:
            for verb in Request.usage.keys.sorted() { conn.send(.help(usage: Request.usage[verb]!)) }
            conn.send(.help(count: Request.usage.count))
        case .quit:
            sayGoodbye(conn, .quit)
        case .data:
            // An open upload's DATA lines never get here (`takeUploadLine`).
            reply(conn, error: .noUpload)
        case .hello(let version, let name, let token):
            guard conn.player == nil else { return reply(conn, error: .alreadyGreeted) }
            guard ProtocolVersion.supported.contains(version) else { return reply(conn, error: .badVersion(version)) }
            thisTurn.chargeHello()
            greet(conn, version: version, name: name, token: token)
        case .rooms:
            for room in rooms.sorted { conn.send(.room(room.listing)) }
            conn.send(.rooms(count: rooms.count))
        case .stats:
            let rss = (try? ProcessStats.residentBytes()) ?? 0
            let mps = stats.movesPerSecond(at: clock.now)
            let fields: [(String, Any)] = [
                ("connections", connections.count), ("rooms", rooms.count), ("players", rooms.playerCount), ("moves", stats.moves),
                ("moves_per_sec", mps), ("drags", stats.drags), ("requests", stats.requests), ("bytes_out", stats.bytesOut),
                ("slow_disconnects", stats.slowReaderDisconnects), ("coalesced_drags", stats.coalescedDrags),
                ("refused", stats.refusedConnections), ("rss_bytes", rss), ("uptime_s", clock.uptimeSeconds),
            ]
            conn.send(.stats(fields.map { ReplyField($0.0, "\($0.1)") }))
        default:
            guard let player = conn.player else { return reply(conn, error: .notHello) }
            handleGreeted(request, from: conn, player: player)
        }
    }

    /// HELLO: version 1 gets a new player each time; version 2 gets a resume
    /// token with it, and a known token brings back its player (id and name).
    private func greet(_ conn: Connection, version: Int, name: String, token: String?) {
        if let token {
            guard let entry = registry.byToken[token] else { return reply(conn, error: .badToken) }
            // The person is back: a connection still speaking for it (a dead
            // link not noticed yet) is closed; its holds wait for this one to
            // join the room again, as after any dropped link.
            for other in Array(connections.values) where other !== conn && other.player == entry.id {
                sayGoodbye(other, .resumed)
            }
            conn.player = entry.id
            conn.name = entry.name
            conn.version = version
            return conn.send(.hello(version: version, player: entry.id, name: entry.name, token: token))
        }
        // Reserved on disk before it is handed out: ids are never reused,
        // also across restarts (PROTOCOL.md, *Players are kept*).
        let id: PlayerID
        do {
            id = try registry.issueID()
        } catch {
            logger.error("cannot record a player id: \(error)")
            return reply(conn, error: .storage("the server could not store the player (\(Self.storageReason(error)))"))
        }
        var issued: String?
        if version >= 2 {
            var rng = SystemRandomNumberGenerator()
            let fresh = (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max, using: &rng), radix: 16) }
                .map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined()
            do {
                try registry.register(token: fresh, PlayerRegistry.Entry(id: id, name: name))
            } catch {
                logger.error("cannot record a resume token: \(error)")
                return reply(conn, error: .storage("the server could not store the player (\(Self.storageReason(error)))"))
            }
            issued = fresh
        }
        conn.player = id
        conn.name = name
        conn.version = version
        conn.send(.hello(version: version, player: id, name: name, token: issued))
    }

    private func handleGreeted(_ request: Request, from conn: Connection, player: PlayerID) {
        switch request {
        case .create(let r):
            createRoom(r, for: conn)
            return
        case .join(let name, let password):
            join(name, password: password, from: nil, request: request, conn: conn, player: player)
            return
        case .watch(let name, let password):
            watch(name, password: password, request: request, conn: conn, player: player)
            return
        case .upload(let name, let bytes):
            beginUpload(name, bytes: bytes, conn: conn)
            return
        case .rejoin(let name, let seq, let run, let password):
            guard conn.version >= 2 else { return reply(conn, error: .versionTwoOnly("REJOIN")) }
            join(name, password: password, from: (seq, run), request: request, conn: conn, player: player)
            return
        default:
            break
        }
        guard let room = conn.room else { return reply(conn, error: .notJoined) }
        if conn.watching, request.isPlay { return reply(conn, error: .watching(room.name)) }
        switch request {
        case .leave:
            leaveRoom(conn)
            conn.send(.left(room: room.name))
        case .sync:
            sendSnapshot(room, to: conn)
            conn.send(.synced(seq: room.state.seq, digest: room.state.digest.description, run: run(of: room, for: conn)))
        case .syncFrom(let seq, let run):
            guard conn.version >= 2 else { return reply(conn, error: .versionTwoOnly("SYNC <seq> <run>")) }
            let missed = catchUp(conn, in: room, from: (seq, run))
            conn.send(.synced(seq: room.state.seq, digest: room.state.digest.description, run: room.recent.run, missed: missed))
        case .picture(let format):
            guard let wire = room.pictureWire(format) else { return reply(conn, error: ProtocolError(.badPicture, "room '\(room.name)' has no picture")) }
            thisTurn.chargeRoom(wire.lines.count)
            conn.send(bytes: wire.lines)
            conn.send(.picture(width: wire.width, height: wire.height, hash: wire.hash))
        case .layout:
            let bytes = room.startLayoutLines
            thisTurn.chargeRoom(bytes.count)
            conn.send(bytes: bytes)
            conn.send(.layout(pieces: room.state.pieceCount, puzzle: room.state.puzzleIndex, seed: room.state.settings.seed))
        case .digest:
            let s = room.state
            conn.send(.digest(DigestSummary(seq: s.seq, value: s.digest.description, correct: s.correctCount, total: s.pieceCount,
                                            held: s.locks.count, puzzle: s.puzzleIndex)))
        case .who:
            let s = room.state
            for (id, info) in s.players.sorted(by: { $0.key < $1.key }) {
                conn.send(.whoPlayer(id: id, name: info.name, moves: info.moves, holding: info.holding))
            }
            // Watchers are version 2's: a version 1 client is not shown them.
            let watchers = conn.version >= 2 ? room.watchers : []
            for w in watchers { conn.send(.whoWatcher(id: w.listedID, name: w.listedName)) }
            conn.send(.who(count: s.players.count + watchers.count))
        case .grab(let piece):
            answer(.grab(piece: piece), in: room, by: conn, player: player)
        case .drag(let piece, let point):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            guard pacing.takeDrag(from: &conn.dragBucket, now: clock.now) else { return reply(conn, error: .rateLimited) }
            answer(.drag(piece: piece, to: point), in: room, by: conn, player: player)
        case .rotate(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            answer(.rotate(piece: piece), in: room, by: conn, player: player)
        case .drop(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            answer(.drop(piece: piece), in: room, by: conn, player: player)
        case .release(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            answer(.release(piece: piece), in: room, by: conn, player: player)
        case .keep(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            // Paced with the drags: a KEEP costs no broadcast, but a flood of
            // them must not cost the loop more than a flood of drags would.
            guard pacing.takeDrag(from: &conn.dragBucket, now: clock.now) else { return reply(conn, error: .rateLimited) }
            answer(.keep(piece: piece), in: room, by: conn, player: player)
        case .hint:
            answer(.hint, in: room, by: conn, player: player)
        case .next:
            answer(.next, in: room, by: conn, player: player)
        case .history(let puzzle):
            let listed = room.history.filter { puzzle == nil || $0.puzzle == puzzle }
            if let puzzle, listed.isEmpty { return reply(conn, error: .unknownPuzzle(puzzle, room: room.name, kept: room.history.map(\.puzzle))) }
            var bytes: [UInt8] = []
            for replay in listed { ReplayCodec.encodeHistory(replay, into: &bytes) }
            if !bytes.isEmpty { conn.send(bytes: bytes) }
            conn.send(.history(count: listed.count))
        case .replay(let puzzle, let from):
            sendReplay(puzzle, from: from, of: room, to: conn)
        case .say(let text):
            if let wait = pacing.takeChat(from: &conn.chatBucket, now: clock.now) { return pause(conn, forMillis: wait, deferring: request) }
            room.broadcast(line: EventCodec.encodeSay(seq: room.state.seq, player: player, text: text))
            conn.send(.said)
        default:
            reply(conn, error: .unknownVerb(request.verb))
        }
    }

    /// JOIN. Version 2 may JOIN another room while in one: a switch. Every
    /// check of the new room (unknown, password, name) is made first, while
    /// the player is still in its room; only once all pass, and the join is
    /// journaled, does it leave the old room (its holds go back, `left`
    /// there). A refused switch changes nothing in the old room.
    private func join(_ name: String, password: String?, from point: (seq: UInt64, run: String)?, request: Request,
                      conn: Connection, player: PlayerID) {
        if let current = conn.room {
            guard conn.version >= 2 else { return reply(conn, error: .alreadyInRoom) }
            // A watcher may join the room it watches, to play.
            guard current.name != name || conn.watching else { return reply(conn, error: .alreadyInThisRoom(name)) }
        }
        guard let room = rooms[name] else { return reply(conn, error: .unknownRoom(name)) }
        guard !refusesPassword(password, of: room, conn: conn, request: request) else { return }
        // Two people in one room never share a name (the same player coming
        // back is not two). Version 1 joins as it always did.
        let playerName = conn.name ?? "player"
        var givesWay: PlayerID?
        if conn.version >= 2, let other = room.state.players.first(where: { $0.key != player && $0.value.name == playerName })?.key {
            guard let away = keeper.awayPlayer(other), away.room === room, away.host == conn.host else {
                return reply(conn, error: .nameTaken(playerName))
            }
            givesWay = other
        }
        // A room with all its seats taken: a player still in it (away after a
        // dropped link) is no newcomer, nor is one taking its away self's place.
        if let seats = room.state.settings.seats, room.state.players[player] == nil,
           room.state.players.count - (givesWay == nil ? 0 : 1) >= seats {
            return reply(conn, error: .roomFull(room.name, seats: seats))
        }
        // Every check passed.
        if let other = givesWay {
            // Its name again, from its address, without its token: most
            // likely its client restarted (a token lives as long as the
            // client). The player away after a dropped link gives its place
            // up rather than keep the name taken for the rest of its stay.
            keeper.endStay(of: other, now: clock.now)
            logger.info("player \(other) left \(room.name): \(conn.label) came as \(playerName) without its token")
        }
        // Back from a dropped link: it takes its place (and any pieces it
        // holds) again, with no new `joined`. Joined before leaving the old
        // room, so that a join the disk refuses (STORAGE) leaves it there.
        // A watcher stops watching first: its own `joined` is then not sent
        // to it (it had no snapshot of it), as for any JOIN.
        if conn.watching { stopWatching(conn) }
        if !keeper.returnFromAway(player, to: room, now: clock.now) {
            guard perform(.join(name: playerName), in: room, by: conn, player: player) != nil else { return }
        }
        if let old = conn.room { leaveRoom(conn); logger.info("\(conn.label) switched from \(old.name) to \(room.name)") }
        room.add(conn)
        conn.room = room
        keeper.visited(room, by: player)
        let missed = point.flatMap { catchUp(conn, in: room, from: $0) }
        if point == nil { sendSnapshot(room, to: conn) }
        conn.send(.joined(room: room.name, player: player, seq: room.state.seq, run: run(of: room, for: conn), missed: missed))
        logger.info("\(conn.label) joined \(room.name)")
    }

    /// Checks a room's password (paced per address): whether it refused
    /// (and answered, or deferred the request).
    func refusesPassword(_ password: String?, of room: HostedRoom, conn: Connection, request: Request) -> Bool {
        guard let expected = room.password else { return false }
        // Gated before the comparison, right or wrong, so that neither
        // more connections nor the reply's timing help a guesser.
        if let wait = pacing.passwords.wait(for: conn.host, now: clock.now) {
            pause(conn, forMillis: wait, deferring: request)
            return true
        }
        guard expected != password else { return false }
        pacing.passwords.recordFailure(from: conn.host, now: clock.now)
        logger.info("wrong password for room \(room.name) from \(conn.label)")
        reply(conn, error: password == nil ? .passwordNeeded(room.name) : .badPassword)
        return true
    }

    /// Performs a player's action and answers it with the reply the core's
    /// outcome makes (or the refusal).
    private func answer(_ action: Action, in room: HostedRoom, by conn: Connection, player: PlayerID) {
        guard let outcome = perform(action, in: room, by: conn, player: player) else { return }
        switch outcome {
        case .joined, .left:
            return  // JOIN and LEAVE answer with their room, not through here
        case .grabbed(let piece):
            conn.send(.grabbed(piece: piece))
        case .dragged(let piece, let point, let target):
            stats.drags += 1
            conn.send(.dragged(piece: piece, to: point, target: target))
        case .rotated(let piece, let rotation, _):
            conn.send(.rotated(piece: piece, rotation: rotation))
        case .dropped(let piece, let drop, let solved, let moved):
            if moved { stats.countMove(at: clock.now) }
            conn.send(.dropped(piece: piece, outcome: drop, solved: solved))
        case .released(let piece):
            conn.send(.released(piece: piece))
        case .kept(let piece, let until):
            conn.send(.kept(piece: piece, leaseLeftMillis: max(0, until - clock.now)))
        case .hint(let millis, _):
            conn.send(.hint(millis: millis))
        case .next(let puzzle, let spec):
            room.picture = pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols)
            conn.send(.next(puzzle: puzzle, kind: spec.kind, rows: spec.rows, cols: spec.cols))
        }
    }

    /// Runs an action through the core; a refusal becomes an ERR reply naming
    /// players by name. Returns what the accepted action did, nil if refused.
    ///
    /// The action is planned first (validated, its events computed, the state
    /// unchanged); its durable events are appended to the room's journal; only
    /// then is the state changed and the events broadcast. A move whose record
    /// cannot be written is refused with `ERR STORAGE` and leaves the room as
    /// it was (the piece stays in hand), so that no move is ever made that the
    /// disk does not have.
    @discardableResult
    func perform(_ action: Action, in room: HostedRoom, by conn: Connection, player: PlayerID) -> ActionOutcome? {
        events.removeAll(keepingCapacity: true)
        let outcome: ActionOutcome
        do {
            outcome = try room.plan(action, by: player, at: clock.now, into: &events)
        } catch {
            reply(conn, error: .core(error, name: { id in
                let name = room.state.players[id]?.name ?? "player"
                return id == player ? "you" : "\(name) (#\(id.rawValue))"
            }))
            return nil
        }
        do {
            try store.append(room: room.name, events: events)
        } catch {
            logger.error("room \(room.name): move refused, journal not written: \(error)")
            reply(conn, error: .storage("the move could not be stored (\(Self.storageReason(error))); it was not made"))
            return nil
        }
        let solved = room.record(events)
        room.state.apply(planned: events)
        room.state.apply(outcome)
        room.broadcast(events)
        if let solved { saveReplay(solved, of: room) }
        return outcome
    }

    /// The system's words for a store failure, without paths (for clients).
    static func storageReason(_ error: RoomStoreError) -> String {
        if case .io(_, let errno) = error { return "\(errno)" }
        return "\(error)"
    }

    /// The piece a request names, or the one piece the player holds.
    private func resolve(_ piece: Int?, in room: HostedRoom, player: PlayerID, conn: Connection) -> Int? {
        if let piece { return piece }
        switch room.implicitPiece(of: player) {
        case .piece(let held): return held
        case .noneHeld: reply(conn, error: ProtocolError(.badArgs, "you hold no piece; GRAB one first"))
        case .severalHeld: reply(conn, error: ProtocolError(.badArgs, "you hold several pieces; name one"))
        }
        return nil
    }

    /// A room's run, for a version 2 client's JOIN and SYNC replies.
    func run(of room: HostedRoom, for conn: Connection) -> String? {
        conn.version >= 2 ? room.recent.run : nil
    }

    /// Brings a client that has the room up to `point` up to date: the
    /// events after it, when the room still has them all (returns how
    /// many), else a snapshot (returns nil).
    func catchUp(_ conn: Connection, in room: HostedRoom, from point: (seq: UInt64, run: String)) -> Int? {
        if let lines = room.recent.lines(after: point.seq, run: point.run, current: room.state.seq) {
            var bytes = Array(lines)
            // Who watches now (their comings and goings are not in the ring),
            // and the clock (events carry no time: applied late, a join or a
            // leave would start or stop the client's clock at the wrong moment).
            room.appendWatchers(to: &bytes)
            StateRecordCodec.encode(.clock(elapsedMillis: room.state.elapsed(at: clock.now), running: room.state.clockIsRunning), into: &bytes)
            if !bytes.isEmpty { conn.send(bytes: bytes) }
            return Int(room.state.seq - point.seq)
        }
        sendSnapshot(room, to: conn)
        return nil
    }

    func sendSnapshot(_ room: HostedRoom, to conn: Connection) {
        var bytes: [UInt8] = []
        // Version 2 gets the compact form: pieces home or at their start as
        // ranges, the picture by its hash (fetched with PICTURE when missing).
        let compact = conn.version >= 2
        SnapshotCodec.encode(RoomSnapshot(name: room.name, state: room.state, picture: room.picture,
                                          pictureHash: compact ? room.pictureHash : nil), now: clock.now,
                             extended: compact, layout: compact, compact: compact, layoutBytes: compact ? room.layoutLines : nil,
                             into: &bytes)
        thisTurn.chargeRoom(bytes.count)
        // Who watches is the server's, not the room state's (nor its disk's).
        if conn.version >= 2 { room.appendWatchers(to: &bytes) }
        conn.send(bytes: bytes)
    }

    /// REPLAY: a kept replay's lines as one write (the slow-reader rules pace
    /// it like a snapshot), a page of moves at a time: from move 0, its start,
    /// players and picture (the puzzle's, which may not be the room's now) too.
    private func sendReplay(_ puzzle: Int, from: Int, of room: HostedRoom, to conn: Connection) {
        let refusal = ProtocolError.unknownPuzzle(puzzle, room: room.name, kept: room.history.map(\.puzzle))
        guard room.history.contains(where: { $0.puzzle == puzzle }) else { return reply(conn, error: refusal) }
        let replay: PuzzleReplay
        if let unsaved = room.unsavedReplay, unsaved.puzzle == puzzle {
            replay = unsaved
        } else if let read = room.lastReplayRead, read.puzzle == puzzle {
            replay = read
        } else {
            do {
                guard let kept = try store.loadReplay(room: room.name, puzzle: puzzle) else { return reply(conn, error: refusal) }
                replay = kept
                room.lastReplayRead = kept
            } catch {
                logger.error("room \(room.name): \(error)")
                return reply(conn, error: .storage("the replay of puzzle \(puzzle) could not be read (\(Self.storageReason(error)))"))
            }
        }
        let start = min(from, replay.moves.count)
        let end = start + min(replay.moves.count - start, max(1, config.replayPageMoves))
        var bytes: [UInt8] = []
        ReplayCodec.encode(replay, header: from == 0, moves: start..<end, into: &bytes)
        let spec = replay.spec
        if from == 0, let picture = pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols) {
            bytes.append(text: "S picture \(picture.width) \(picture.height)\n")
            for row in picture.hexRows() { bytes.append(text: "S px \(row)\n") }
        }
        if !bytes.isEmpty { conn.send(bytes: bytes) }
        // Kept only while a reader goes through its pages: rooms hold no replay for long.
        if end == replay.moves.count { room.lastReplayRead = nil }
        conn.send(.replay(puzzle: puzzle, moves: end - start, more: end < replay.moves.count ? end : nil))
    }
}
