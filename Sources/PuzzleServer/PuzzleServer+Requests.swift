import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension PuzzleServer {
    /// Answers one request with exactly one reply (`OK`, `ERR` or `PONG`),
    /// preceded by any `S` state lines that belong to it.
    func handle(_ request: Request, from conn: Connection) {
        switch request {
        case .ping(let token):
            conn.send(token.isEmpty ? "PONG" : "PONG \(token)")
        case .help:
            for verb in Request.usage.keys.sorted() { conn.send("S help \(Request.usage[verb]!)") }
            conn.send("OK help \(Request.usage.count)")
        case .quit:
            conn.send("OK bye")
            leaveRoom(conn)
            conn.closeAfterFlush = true
            conn.closeReason = "quit"
        case .hello(let version, let name):
            guard conn.player == nil else { return reply(conn, error: .alreadyGreeted) }
            guard version == ProtocolVersion.current else { return reply(conn, error: .badVersion(version)) }
            let id = PlayerID(nextPlayer)
            nextPlayer += 1
            conn.player = id
            conn.name = name
            conn.send("OK hello version=\(ProtocolVersion.current) id=\(id.rawValue) name=\(name) server=puzzle-room")
        case .rooms:
            for room in rooms.values.sorted(by: { $0.name < $1.name }) {
                let s = room.state
                conn.send("S room \(room.name) kind=\(s.spec.kind.rawValue) size=\(s.spec.rows)x\(s.spec.cols) rotation=\(s.spec.rotation ? "on" : "off") players=\(s.players.count) password=\(room.password == nil ? "no" : "yes") puzzle=\(s.puzzleIndex) progress=\(s.correctCount)/\(s.pieceCount)\(s.isSolved ? " solved" : "")")
            }
            conn.send("OK rooms \(rooms.count)")
        case .stats:
            let rss = (try? ProcessStats.residentBytes()) ?? 0
            let players = rooms.values.reduce(0) { $0 + $1.state.players.count }
            let mps = stats.movesPerSecond(at: now)
            conn.send("OK stats connections=\(connections.count) rooms=\(rooms.count) players=\(players) moves=\(stats.moves) moves_per_sec=\(mps) drags=\(stats.drags) requests=\(stats.requests) bytes_out=\(stats.bytesOut) slow_disconnects=\(stats.slowReaderDisconnects) coalesced_drags=\(stats.coalescedDrags) refused=\(stats.refusedConnections) rss_bytes=\(rss) uptime_s=\((now - startedAt) / 1000)")
        default:
            guard let player = conn.player else { return reply(conn, error: .notHello) }
            handleGreeted(request, from: conn, player: player)
        }
    }

    private func handleGreeted(_ request: Request, from conn: Connection, player: PlayerID) {
        switch request {
        case .create(let r):
            createRoom(r, for: conn)
            return
        case .join(let name, let password):
            guard conn.room == nil else { return reply(conn, error: .alreadyInRoom) }
            guard let room = rooms[name] else { return reply(conn, error: .unknownRoom(name)) }
            if let expected = room.password {
                // Gated before the comparison, right or wrong, so that neither
                // more connections nor the reply's timing help a guesser.
                if let wait = passwordThrottle.wait(for: conn.host, now: now) {
                    return pause(conn, forMillis: wait, deferring: request)
                }
                if expected != password {
                    passwordThrottle.recordFailure(from: conn.host, now: now)
                    logger.info("wrong password for room \(room.name) from \(conn.label)")
                    return reply(conn, error: .badPassword)
                }
            }
            guard perform(.join(name: conn.name ?? "player"), in: room, by: conn, player: player) else { return }
            room.add(conn)
            conn.room = room
            sendSnapshot(room, to: conn)
            conn.send("OK joined \(room.name) id=\(player.rawValue) seq=\(room.state.seq)")
            logger.info("\(conn.label) joined \(room.name)")
            return
        default:
            break
        }
        guard let room = conn.room else { return reply(conn, error: .notJoined) }
        switch request {
        case .leave:
            leaveRoom(conn)
            conn.send("OK left \(room.name)")
        case .sync:
            sendSnapshot(room, to: conn)
            conn.send("OK sync seq=\(room.state.seq) digest=\(room.state.digest)")
        case .digest:
            let s = room.state
            conn.send("OK digest seq=\(s.seq) value=\(s.digest) correct=\(s.correctCount) total=\(s.pieceCount) held=\(s.locks.count) puzzle=\(s.puzzleIndex)")
        case .who:
            let s = room.state
            for (id, info) in s.players.sorted(by: { $0.key < $1.key }) {
                let holding = info.holding.isEmpty ? "-" : info.holding.map(String.init).joined(separator: ",")
                conn.send("S who \(id.rawValue) \(info.name) moves=\(info.moves) holding=\(holding)")
            }
            conn.send("OK who \(s.players.count)")
        case .grab(let piece):
            if perform(.grab(piece: piece), in: room, by: conn, player: player) {
                var bytes: [UInt8] = []
                bytes.append(ascii: "OK grabbed ")
                bytes.append(decimal: piece)
                bytes.append(UInt8(ascii: "\n"))
                conn.send(bytes: bytes)
            }
        case .drag(let piece, let point):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            guard takeDragToken(conn) else { return reply(conn, error: .rateLimited) }
            if perform(.drag(piece: piece, to: point), in: room, by: conn, player: player) {
                stats.drags += 1
                // The hottest reply: formatted straight into bytes.
                var bytes: [UInt8] = []
                bytes.reserveCapacity(40)
                bytes.append(ascii: "OK dragged ")
                bytes.append(decimal: piece)
                bytes.append(UInt8(ascii: " "))
                bytes.append(decimal: point.x)
                bytes.append(UInt8(ascii: " "))
                bytes.append(decimal: point.y)
                if let t = room.state.locks[piece]?.target {
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(decimal: t.row)
                    bytes.append(UInt8(ascii: ","))
                    bytes.append(decimal: t.col)
                } else {
                    bytes.append(ascii: " -")
                }
                bytes.append(UInt8(ascii: "\n"))
                conn.send(bytes: bytes)
            }
        case .rotate(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            if perform(.rotate(piece: piece), in: room, by: conn, player: player) {
                conn.send("OK rotated \(piece) \(room.state.locks[piece]?.rotation ?? 0)")
            }
        case .drop(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            if perform(.drop(piece: piece), in: room, by: conn, player: player) {
                stats.countMove(at: now)
                conn.send("OK dropped \(piece) \(Self.dropOutcome(events, in: room.state))")
            }
        case .release(let piece):
            guard let piece = resolve(piece, in: room, player: player, conn: conn) else { return }
            if perform(.release(piece: piece), in: room, by: conn, player: player) { conn.send("OK released \(piece)") }
        case .hint:
            if perform(.hint, in: room, by: conn, player: player) { conn.send("OK hint \(room.state.settings.hintMillis)") }
        case .next:
            if perform(.next, in: room, by: conn, player: player) {
                room.picture = pictures.terminalPicture(room.state.spec.picture, rows: room.state.spec.rows, cols: room.state.spec.cols)
                conn.send("OK next \(room.state.puzzleIndex) \(room.state.spec.kind.rawValue) \(room.state.spec.rows)x\(room.state.spec.cols)")
            }
        case .say(let text):
            if let wait = takeChatToken(conn) { return pause(conn, forMillis: wait, deferring: request) }
            room.broadcast(line: EventCodec.encodeSay(seq: room.state.seq, player: player, text: text))
            conn.send("OK said")
        default:
            reply(conn, error: .unknownVerb(request.verb))
        }
    }

    /// Runs an action through the core; a refusal becomes an ERR reply naming
    /// players by name. Returns whether the action was accepted.
    ///
    /// The action is planned first (validated, its events computed, the state
    /// unchanged); its durable events are appended to the room's journal; only
    /// then is the state changed and the events broadcast. A move whose record
    /// cannot be written is refused with `ERR STORAGE` and leaves the room as
    /// it was (the piece stays in hand), so that no move is ever made that the
    /// disk does not have.
    @discardableResult
    func perform(_ action: Action, in room: HostedRoom, by conn: Connection, player: PlayerID) -> Bool {
        events.removeAll(keepingCapacity: true)
        do {
            try room.state.plan(action, by: player, at: now, into: &events)
        } catch {
            reply(conn, error: .core(error, name: { id in
                let name = room.state.players[id]?.name ?? "player"
                return id == player ? "you" : "\(name) (#\(id.rawValue))"
            }))
            return false
        }
        do {
            try store.append(room: room.name, events: events)
        } catch {
            logger.error("room \(room.name): move refused, journal not written: \(error)")
            reply(conn, error: .storage("the move could not be stored (\(Self.storageReason(error))); it was not made"))
            return false
        }
        room.state.apply(planned: events)
        room.broadcast(events)
        return true
    }

    /// The DROP reply's outcome, read from the events the core decided (never
    /// from the board before and after, and never indexing by a client's number).
    static func dropOutcome(_ events: [RoomEvent], in state: RoomState) -> String {
        var outcome = "returned"
        var solved = false
        for event in events {
            switch event.body {
            case .placed(_, _, .board(let c), _): outcome = "cell \(c.row) \(c.col)"
            case .placed(_, _, .table(let p), _): outcome = "table \(p.x) \(p.y)"
            case .swapped(let p, _, _): outcome = "swapped \(state.pieces[p].location)"
            case .solved: solved = true
            default: break
            }
        }
        return solved ? outcome + " solved" : outcome
    }

    /// The system's words for a store failure, without paths (for clients).
    static func storageReason(_ error: RoomStoreError) -> String {
        if case .io(_, let errno) = error { return "\(errno)" }
        return "\(error)"
    }

    /// The piece a request names, or the one piece the player holds.
    private func resolve(_ piece: Int?, in room: HostedRoom, player: PlayerID, conn: Connection) -> Int? {
        if let piece { return piece }
        switch room.state.implicitPiece(of: player) {
        case .piece(let held): return held
        case .noneHeld: reply(conn, error: ProtocolError("BAD_ARGS", "you hold no piece; GRAB one first"))
        case .severalHeld: reply(conn, error: ProtocolError("BAD_ARGS", "you hold several pieces; name one"))
        }
        return nil
    }

    /// Token bucket: `dragRateLimit` drags a second, bursts up to one second's worth.
    private func takeDragToken(_ conn: Connection) -> Bool {
        let rate = Double(config.dragRateLimit)
        guard rate > 0 else { return true }
        let elapsed = Double(now - conn.dragRefilledAt) / 1000
        conn.dragRefilledAt = now
        conn.dragTokens = min(rate, conn.dragTokens + elapsed * rate)
        guard conn.dragTokens >= 1 else { return false }
        conn.dragTokens -= 1
        return true
    }

    func sendSnapshot(_ room: HostedRoom, to conn: Connection) {
        var bytes: [UInt8] = []
        SnapshotCodec.encode(RoomSnapshot(name: room.name, state: room.state, picture: room.picture), now: now, into: &bytes)
        conn.send(bytes: bytes)
    }
}
