import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Decides every request: a request, the session it came on and the time
/// in; what to do out (`SessionEffect`s: replies, lines, membership
/// changes, a pause, a hold for an upload, a goodbye), with no socket and
/// no epoll. The loop reads lines, keeps the turn's budget, journals and
/// flushes; it hands each parsed request here and carries out what comes
/// back (`PuzzleServer.carryOut`), in order.
///
/// The router's parts own their state: `Greeter` (HELLO, tokens),
/// `RoomDoor` (CREATE, JOIN, REJOIN, WATCH, LEAVE, passwords), `RoomSender`
/// (snapshots, catch-ups, PICTURE, LAYOUT, HISTORY, REPLAY), `MoveDesk`
/// (moves through the core, journaled before they are applied) and
/// `PictureUploads` (UPLOAD, DATA). Room events are written into the
/// rooms' broadcasts as they happen.
///
/// Not thread-safe: owned by the server's event loop.
final class RequestRouter {
    let rooms: RoomDirectory
    let keeper: RoomKeeper
    let greeter: Greeter
    let door: RoomDoor
    let sender: RoomSender
    let moves: MoveDesk
    let uploads: PictureUploads
    let stats: ServerStats
    /// The pictures rooms are made from (built in, configured, uploaded).
    var pictures: PictureLibrary
    /// Drag and chat pacing.
    private(set) var pacing: Pacing
    private let logger: Logger
    private let out: SessionOutbox
    /// Facts of the loop's (connections, uptime).
    weak var loop: (any LoopFacts)?

    init(config: ServerConfig, rooms: RoomDirectory, keeper: RoomKeeper, store: RoomStore, registry: PlayerRegistry,
         uploads: PictureUploads, pictures: PictureLibrary, stats: ServerStats, logger: Logger,
         makeToken: @escaping () -> String = Greeter.randomToken) {
        self.rooms = rooms
        self.keeper = keeper
        self.uploads = uploads
        self.pictures = pictures
        self.stats = stats
        self.logger = logger
        pacing = Pacing(config: config)
        out = SessionOutbox(stats: stats)
        greeter = Greeter(registry: registry, logger: logger, out: out, makeToken: makeToken)
        moves = MoveDesk(store: store, keeper: keeper, stats: stats, logger: logger, out: out)
        sender = RoomSender(store: store, replayPageMoves: config.replayPageMoves, logger: logger, out: out)
        door = RoomDoor(rooms: rooms, keeper: keeper, moves: moves, sender: sender, registry: registry,
                        passwords: PasswordThrottle(freeAttempts: config.passwordFreeAttempts, retryMillis: config.passwordRetryMillis),
                        creates: CreateThrottle(perHour: config.createsPerHour),
                        logger: logger, out: out)
    }

    /// A new connection's session, with its drag and chat allowances.
    func newSession(peer: String, host: String, now: Int64) -> PlayerSession {
        PlayerSession(peer: peer, host: host, dragBucket: pacing.newDragBucket(now: now), chatBucket: pacing.newChatBucket(now: now))
    }

    /// Answers one request with exactly one reply (`OK`, `ERR` or `PONG`),
    /// preceded by any `S` state lines that belong to it; or pauses it, holds
    /// the session for its upload, or says goodbye.
    func route(_ request: Request, for session: PlayerSession, now: Int64) -> [SessionEffect] {
        out.reset()
        switch request {
        case .ping(let token):
            out.send(.pong(token: token))
        case .help:
            for verb in Request.usage.keys.sorted() { out.send(.help(usage: Request.usage[verb]!)) }
            out.send(.help(count: Request.usage.count))
        case .quit:
            out.add(.goodbye(.quit))
        case .data:
            // An open upload's DATA lines never get here (`takeUploadLine`).
            out.refuse(.noUpload)
        case .hello(let version, let name, let token):
            guard session.player == nil else { out.refuse(.alreadyGreeted); break }
            guard ProtocolVersion.supported.contains(version) else { out.refuse(.badVersion(version)); break }
            out.add(.chargeHello)
            greeter.greet(session, version: version, name: name, token: token)
        case .rooms:
            // Right after a restart: the list waits for every room, so that
            // no room is missing from it (a client would take it for gone).
            if !rooms.loading.isEmpty { out.add(.waitForRoom(nil, deferring: request)); break }
            for room in rooms.sorted { out.send(.room(room.listing)) }
            out.send(.rooms(count: rooms.count))
        case .stats:
            sendStats(now: now)
        default:
            if let player = session.player { routeGreeted(request, session: session, player: player, now: now) } else { out.refuse(.notHello) }
        }
        return out.effects
    }

    private func routeGreeted(_ request: Request, session: PlayerSession, player: PlayerID, now: Int64) {
        switch request {
        case .create(let r):
            return door.create(r, by: session, pictures: &pictures, now: now)
        case .join(let name, let password):
            return door.join(name, password: password, from: nil, request: request, session: session, player: player, now: now)
        case .watch(let name, let password):
            return door.watch(name, password: password, request: request, session: session, player: player, now: now)
        case .upload(let name, let bytes):
            return out.send(uploads.begin(name, bytes: bytes, slot: &session.upload, host: session.host, label: session.label,
                                          receivingElsewhere: loop?.uploadsReceiving(besides: session) ?? 0,
                                          pictures: pictures, now: now))
        case .pace(let millis):
            guard session.speaksVersionTwo else { return out.refuse(.versionTwoOnly("PACE")) }
            out.add(.paceDrags(millis: millis))
            return out.send(.paced(millis: millis))
        case .events(let on):
            guard session.speaksVersionTwo else { return out.refuse(.versionTwoOnly("EVENTS")) }
            out.add(.sendEvents(on))
            return out.send(.events(on: on))
        case .rejoin(let name, let seq, let run, let password):
            guard session.speaksVersionTwo else { return out.refuse(.versionTwoOnly("REJOIN")) }
            return door.join(name, password: password, from: (seq, run), request: request, session: session, player: player, now: now)
        default:
            break
        }
        guard let room = session.room else { return out.refuse(.notJoined) }
        if session.watching, request.isPlay { return out.refuse(.watching(room.name)) }
        switch request {
        case .leave:
            door.leave(session, now: now)
            out.send(.left(room: room.name))
        case .sync:
            sender.sync(session, in: room, now: now)
        case .syncFrom(let seq, let run):
            guard session.speaksVersionTwo else { return out.refuse(.versionTwoOnly("SYNC <seq> <run>")) }
            sender.sync(session, in: room, from: (seq, run), now: now)
        case .picture(let format):
            sender.sendPicture(of: room, as: format, request: request)
        case .layout(let puzzle):
            sender.sendLayout(of: room, puzzle: puzzle)
        case .digest:
            let s = room.state
            out.send(.digest(DigestSummary(seq: s.seq, value: s.digest.description, correct: s.correctCount, total: s.pieceCount,
                                           held: s.locks.count, puzzle: s.puzzleIndex)))
        case .who:
            sendWho(in: room, to: session)
        case .grab(let piece):
            moves.answer(.grab(piece: piece), in: room, by: player, now: now, pictures: &pictures)
        case .drag(let piece, let point):
            guard let piece = moves.resolve(piece, in: room, player: player) else { return }
            guard pacing.takeDrag(from: &session.dragBucket, now: now) else { return out.refuse(.rateLimited) }
            moves.answer(.drag(piece: piece, to: point), in: room, by: player, now: now, pictures: &pictures)
        case .rotate(let piece):
            guard let piece = moves.resolve(piece, in: room, player: player) else { return }
            moves.answer(.rotate(piece: piece), in: room, by: player, now: now, pictures: &pictures)
        case .drop(let piece):
            guard let piece = moves.resolve(piece, in: room, player: player) else { return }
            moves.answer(.drop(piece: piece), in: room, by: player, now: now, pictures: &pictures)
        case .release(let piece):
            guard let piece = moves.resolve(piece, in: room, player: player) else { return }
            moves.answer(.release(piece: piece), in: room, by: player, now: now, pictures: &pictures)
        case .keep(let piece):
            guard let piece = moves.resolve(piece, in: room, player: player) else { return }
            // Paced with the drags: a KEEP costs no broadcast, but a flood of
            // them must not cost the loop more than a flood of drags would.
            guard pacing.takeDrag(from: &session.dragBucket, now: now) else { return out.refuse(.rateLimited) }
            moves.answer(.keep(piece: piece), in: room, by: player, now: now, pictures: &pictures)
        case .hint:
            moves.answer(.hint, in: room, by: player, now: now, pictures: &pictures)
        case .next:
            moves.answer(.next, in: room, by: player, now: now, pictures: &pictures)
        case .history(let puzzle):
            sender.sendHistory(of: room, puzzle: puzzle)
        case .replay(let puzzle, let from):
            sender.sendReplay(puzzle, from: from, of: room, request: request, pictures: &pictures)
        case .say(let text):
            if let wait = pacing.takeChat(from: &session.chatBucket, now: now) { return out.add(.pause(millis: wait, deferring: request)) }
            room.broadcast(line: EventCodec.encodeSay(seq: room.state.seq, player: player, text: text))
            out.send(.said)
        default:
            out.refuse(.unknownVerb(request.verb))
        }
    }

    /// STATS: the server's counters.
    private func sendStats(now: Int64) {
        let rss = (try? ProcessStats.residentBytes()) ?? 0
        let fields: [(String, Any)] = [
            ("connections", loop?.connectionCount ?? 0), ("rooms", rooms.count), ("players", rooms.playerCount), ("moves", stats.moves),
            ("moves_per_sec", stats.movesPerSecond(at: now)), ("drags", stats.drags), ("requests", stats.requests),
            ("bytes_out", stats.bytesOut), ("slow_disconnects", stats.slowReaderDisconnects), ("coalesced_drags", stats.coalescedDrags),
            ("refused", stats.refusedConnections), ("rss_bytes", rss), ("uptime_s", loop?.uptimeSeconds ?? 0),
            ("rejoin_bytes", rooms.rejoinMemoryBytes), ("rooms_loading", rooms.loading.count),
        ]
        out.send(.stats(fields.map { ReplyField($0.0, "\($0.1)") }))
    }

    /// WHO: the room's players, then (version 2 only) its watchers.
    private func sendWho(in room: HostedRoom, to session: PlayerSession) {
        let s = room.state
        for (id, info) in s.players.sorted(by: { $0.key < $1.key }) {
            out.send(.whoPlayer(id: id, name: info.name, moves: info.moves, holding: info.holding))
        }
        let watchers = session.speaksVersionTwo ? room.watchers : []
        for w in watchers { out.send(.whoWatcher(id: w.listedID, name: w.listedName)) }
        out.send(.who(count: s.players.count + watchers.count))
    }

    /// A CREATE's room made off the loop: hosted, and the reply for the
    /// connection that asked (`label`; nil when it has gone).
    func finishCreate(_ done: RoomCreation.Done, label: String?, now: Int64) -> [SessionEffect] {
        out.reset()
        door.finishCreate(done, label: label, pictures: &pictures, now: now)
        return out.effects
    }

    /// A replay read off the loop for `session`'s REPLAY: true when that
    /// REPLAY is now to be answered again (from memory); else its refusal
    /// is in the effects.

    func finishReplayRead(_ done: ReplayRead.Done) -> (answerAgain: Bool, effects: [SessionEffect]) {
        out.reset()
        let again = sender.finishReplayRead(done, room: rooms[done.read.room])
        return (again, out.effects)
    }

    // MARK: Sessions ending, uploads

    /// A session says goodbye: its player leaves its room (`leaves`) or
    /// drops from it, able to come back (see `RoomDoor.drop`).
    func end(_ session: PlayerSession, leaves: Bool, serverStopping: Bool, now: Int64) -> [SessionEffect] {
        out.reset()
        if leaves { door.leave(session, now: now) } else { door.drop(session, serverStopping: serverStopping, now: now) }
        return out.effects
    }

    /// A line read while the session has an upload open (nil: one longer
    /// than `max_line_length`): whether the upload took it (otherwise it is
    /// handled as a request, or refused as too long), and what to do.
    func takeUploadLine(_ line: [UInt8]?, session: PlayerSession, token: UInt64) -> (taken: Bool, effects: [SessionEffect]) {
        let outcome = if let line { uploads.take(line, slot: &session.upload, token: token, label: session.label) }
                      else { uploads.takeOverlong(slot: &session.upload, label: session.label) }
        out.reset()
        switch outcome {
        case .taken(let reply):
            if let reply { out.send(reply) }
            return (true, out.effects)
        case .notTaken(let reply):
            if let reply { out.send(reply) }
            return (false, out.effects)
        case .storing:
            // Nothing after this line is answered before the upload's reply.
            out.add(.holdForUpload)
            return (true, out.effects)
        }
    }

    /// An upload past its time is given up: its reply, if any.
    func expireUpload(of session: PlayerSession, now: Int64) -> [SessionEffect] {
        out.reset()
        if let reply = uploads.expire(&session.upload, label: session.label, now: now) { out.send(reply) }
        return out.effects
    }

    /// A finished upload, recorded (durably, and offered as a picture) if
    /// its session is still there to be told: its reply.
    func finishUpload(_ done: UploadJob.Finished, sessionOpen: Bool) -> Reply {
        uploads.finish(done, record: sessionOpen, pictures: &pictures)
    }
}
