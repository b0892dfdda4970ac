import PuzzleCore
import PuzzleProtocol

/// Sessions coming to rooms and going: CREATE, JOIN (and a version 2
/// switch from one room to another), REJOIN, WATCH, LEAVE, and a session's
/// end (a goodbye, or a dropped link a version 2 player may come back from).
/// What `RoomKeeper` decides about rooms and their players, applied to one
/// session; the membership changes go to the loop as effects, each marked
/// with where in the room's broadcast of this turn it falls.
///
/// Watchers (version 2's `WATCH`) follow a room live, see every event and
/// may chat, but are no players (not in the room's state, not counted as
/// players, cannot grab). The room's members are told who comes to watch
/// and who goes (`watching`, `unwatching`, unsequenced like chat).
///
/// Not thread-safe: owned by the server's event loop.
final class RoomDoor {
    private let rooms: RoomDirectory
    private let keeper: RoomKeeper
    private let moves: MoveDesk
    private let sender: RoomSender
    /// Each player's colour slot, kept across rooms and restarts.
    private let registry: PlayerRegistry
    private let logger: Logger
    private let out: SessionOutbox
    /// Wrong room passwords, per address (paced, see `Pacing`).
    private(set) var passwords: PasswordThrottle
    /// Rooms made, per address (`creates_per_hour`).
    private(set) var creates: CreateThrottle

    init(rooms: RoomDirectory, keeper: RoomKeeper, moves: MoveDesk, sender: RoomSender, registry: PlayerRegistry,
         passwords: PasswordThrottle, creates: CreateThrottle, logger: Logger, out: SessionOutbox) {
        self.rooms = rooms
        self.registry = registry
        self.keeper = keeper
        self.moves = moves
        self.sender = sender
        self.passwords = passwords
        self.creates = creates
        self.logger = logger
        self.out = out
    }

    /// CREATE.
    func create(_ request: RoomSpec, by session: PlayerSession, pictures: inout PictureLibrary, now: Int64) {
        if let wait = creates.wait(for: session.host, now: now) {
            return out.refuse(ProtocolError(.rateLimited,
                "rooms created from \(session.host) are paced at \(creates.perHour) an hour; try again in \((wait + 999) / 1000) s"))
        }
        switch keeper.beginCreate(request, pictures: pictures, now: now) {
        case .success(var creation):
            // Charged when it starts: one address's connections cannot all
            // slip under its allowance while their rooms are being made.
            creates.charge(session.host, now: now)
            creation.host = session.host
            out.add(.chargeCreate(pieces: creation.settings.first.rows * creation.settings.first.cols))
            out.add(.createRoom(creation))
        case .failure(let error):
            out.refuse(error)
        }
    }

    /// A CREATE's room, made off the loop: hosted and answered, or refused.
    func finishCreate(_ done: RoomCreation.Done, label: String?, pictures: inout PictureLibrary, now: Int64) {
        if case .failure = done.result { creates.refund(done.creation.host, now: now) }
        switch keeper.finishCreate(done, pictures: &pictures) {
        case .success(let room):
            logger.info("\(label ?? "a connection since gone") created room \(room.name)")
            // A piece count is cut to the picture's shape: the reply says
            // the board made, so the client can say why 48 asked made 54.
            if let asked = done.creation.askedPieces {
                out.send(.created(room: room.name, rows: room.state.spec.rows, cols: room.state.spec.cols, asked: asked))
            } else {
                out.send(.created(room: room.name))
            }
        case .failure(let error):
            out.refuse(error)
        }
    }

    /// JOIN, and REJOIN (`point`: where the client's copy of the room is).
    /// Version 2 may JOIN another room while in one: a switch. Every check of
    /// the new room (unknown, password, name) is made first, while the player
    /// is still in its room; only once all pass, and the join is journaled,
    /// does it leave the old room (its holds go back, `left` there). A refused
    /// switch changes nothing in the old room.
    func join(_ name: String, password: String?, from point: (seq: UInt64, run: String)?, request: Request,
              session: PlayerSession, player: PlayerID, now: Int64) {
        if let current = session.room {
            guard session.speaksVersionTwo else { return out.refuse(.alreadyInRoom) }
            // A watcher may join the room it watches, to play.
            guard current.name != name || session.watching else { return out.refuse(.alreadyInThisRoom(name)) }
        }
        guard let room = rooms[name] else { return waitOrRefuse(name, request: request) }
        guard !refusesPassword(password, of: room, session: session, request: request, now: now) else { return }
        // Two people in one room never share a name (the same player coming
        // back is not two). Version 1 joins as it always did.
        let playerName = session.name ?? "player"
        var givesWay: PlayerID?
        if session.speaksVersionTwo,
           let other = room.state.players.first(where: { $0.key != player && $0.value.name == playerName })?.key {
            guard let away = keeper.awayPlayer(other), away.room === room, away.host == session.host else {
                return out.refuse(.nameTaken(playerName))
            }
            givesWay = other
        }
        // A room with all its seats taken: a player still in it (away after a
        // dropped link) is no newcomer, nor is one taking its away self's place.
        if let seats = room.state.settings.seats, room.state.players[player] == nil,
           room.state.players.count - (givesWay == nil ? 0 : 1) >= seats {
            return out.refuse(.roomFull(room.name, seats: seats))
        }
        // Every check passed.
        if let other = givesWay {
            // Its name again, from its address, without its token: most
            // likely its client restarted (a token lives as long as the
            // client). The player away after a dropped link gives its place
            // up rather than keep the name taken for the rest of its stay.
            keeper.endStay(of: other, now: now)
            logger.info("player \(other) left \(room.name): \(session.label) came as \(playerName) without its token")
        }
        // Back from a dropped link: it takes its place (and any pieces it
        // holds) again, with no new `joined`. Joined before leaving the old
        // room, so that a join the disk refuses (STORAGE) leaves it there.
        // A watcher stops watching first: its own `joined` is then not sent
        // to it (it had no snapshot of it), as for any JOIN.
        if session.watching { stopWatching(session) }
        if !keeper.returnFromAway(player, to: room, now: now) {
            // The colour it had last, here or in another room, before a
            // restart too: its own again unless someone present has it.
            let own = registry.colorSlot(of: player)
            guard moves.perform(.join(name: playerName, color: own), in: room, by: player, now: now) != nil else { return }
            if let slot = room.state.colorSlots[player] {
                do { try registry.recordColor(slot, of: player) } catch { logger.warn("colour of player \(player) not kept: \(error)") }
            }
        }
        if let old = session.room { leave(session, now: now); logger.info("\(session.label) switched from \(old.name) to \(room.name)") }
        enter(room, session: session, watching: false)
        keeper.visited(room, by: player)
        let missed = point.flatMap { sender.catchUp(session, in: room, from: $0, now: now) }
        if point == nil { sender.sendSnapshot(room, to: session, now: now) }
        out.send(.joined(room: room.name, player: player, seq: room.state.seq, run: session.run(of: room), missed: missed))
        logger.info("\(session.label) joined \(room.name)")
    }

    /// A room not hosted: one still loading after a restart is waited for
    /// (nothing is served from a half-loaded room); any other is unknown.
    private func waitOrRefuse(_ name: String, request: Request) {
        if rooms.isLoading(name) { return out.add(.waitForRoom(name, deferring: request)) }
        out.refuse(.unknownRoom(name))
    }

    /// WATCH.
    func watch(_ name: String, password: String?, request: Request, session: PlayerSession, player: PlayerID, now: Int64) {
        guard session.speaksVersionTwo else { return out.refuse(.versionTwoOnly("WATCH")) }
        guard let room = rooms[name] else { return waitOrRefuse(name, request: request) }
        if session.room === room && session.watching { return out.refuse(.alreadyInThisRoom(name)) }
        guard !refusesPassword(password, of: room, session: session, request: request, now: now) else { return }
        // Watching is not playing: a player here or elsewhere leaves first
        // (its holds go back), as for a switch.
        // (Also a player away after its earlier link dropped: its stay ends.)
        leave(session, now: now)
        room.broadcast(line: EventCodec.encodeWatching(seq: room.state.seq, player: player, name: session.name ?? "-"))
        enter(room, session: session, watching: true)
        keeper.visited(room, by: player)
        sender.sendSnapshot(room, to: session, now: now)
        out.send(.watching(room: room.name, seq: room.state.seq, run: room.recent.run))
        logger.info("\(session.label) watches \(room.name)")
    }

    /// Checks a room's password (paced per address): whether it refused
    /// (and answered, or deferred the request).
    private func refusesPassword(_ password: String?, of room: HostedRoom, session: PlayerSession, request: Request, now: Int64) -> Bool {
        guard let expected = room.password else { return false }
        // Gated before the comparison, right or wrong, so that neither
        // more connections nor the reply's timing help a guesser.
        if let wait = passwords.wait(for: session.host, now: now) {
            out.add(.pause(millis: wait, deferring: request))
            return true
        }
        guard expected != password else { return false }
        passwords.recordFailure(from: session.host, now: now)
        logger.info("wrong password for room \(room.name) from \(session.label)")
        out.refuse(password == nil ? .passwordNeeded(room.name) : .badPassword)
        return true
    }

    /// Addresses whose wrong passwords are forgiven, and whose room-making
    /// allowance is whole again, by now are forgotten.
    func forgetRecoveredPasswords(now: Int64) {
        passwords.forgetRecovered(now: now)
        creates.forgetRecovered(now: now)
    }

    /// Removes the session's player from its room, returning held pieces.
    /// A player resumed on this session and not joined again is still away
    /// in the room it dropped from: a goodbye ends that stay too.
    func leave(_ session: PlayerSession, now: Int64) {
        // A watcher stops watching; a player away from an earlier link still leaves below.
        if session.watching { stopWatching(session) }
        guard let player = session.player else { return }
        guard let room = session.room else {
            if let left = keeper.endStay(of: player, now: now) { logger.info("\(session.label) left \(left.name), where it was away") }
            return
        }
        exit(room, session: session)
        keeper.performRegardless(.leave, in: room, by: player, now: now)
        logger.info("\(session.label) left \(room.name)")
    }

    /// The session is gone (or another took its player over) without a
    /// goodbye. A player that can resume stays away in the room a while
    /// (`RoomKeeper.keepAway`); a version 1 player, or any while the server
    /// stops, leaves at once.
    func drop(_ session: PlayerSession, serverStopping: Bool, now: Int64) {
        guard !session.watching else { return stopWatching(session) }
        guard let room = session.room, let player = session.player else { return }
        guard session.speaksVersionTwo, !serverStopping else { return leave(session, now: now) }
        exit(room, session: session)
        keeper.keepAway(player, in: room, from: session.host, now: now)
        let holding = room.state.players[player]?.holding ?? []
        logger.info("\(session.label) dropped\(holding.isEmpty ? "" : " holding \(holding)") in \(room.name); kept until the lease ends")
    }

    /// A watcher goes (LEAVE, QUIT, a JOIN, a dropped link): the others are told.
    private func stopWatching(_ session: PlayerSession) {
        guard session.watching, let room = session.room else { return }
        exit(room, session: session)
        if let player = session.player {
            room.broadcast(line: EventCodec.encodeWatching(seq: room.state.seq, player: player, name: nil))
        }
        logger.info("\(session.label) stopped watching \(room.name)")
    }

    /// The session is in `room` from this point of its broadcast on.
    private func enter(_ room: HostedRoom, session: PlayerSession, watching: Bool) {
        out.add(.enter(room, mark: room.chunk.count))
        session.enter(room, watching: watching)
        if watching { room.addWatcher(session) }
    }

    /// The session is out of `room` from this point of its broadcast on.
    private func exit(_ room: HostedRoom, session: PlayerSession) {
        out.add(.leave(room, mark: room.chunk.count))
        if session.watching { room.removeWatcher(session) }
        session.leaveRoom()
    }
}
