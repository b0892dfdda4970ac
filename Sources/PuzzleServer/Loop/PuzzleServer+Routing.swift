import PuzzleCore
import PuzzleProtocol

/// The loop's side of the request router: a parsed request goes to the
/// router, and what it decided is carried out here, in one place and in
/// order (queue a reply or lines, join or leave a room's broadcast, pause,
/// hold for an upload, say goodbye).
extension PuzzleServer: LoopFacts {
    /// Routes one request from `conn` and carries out the decision.
    func handle(_ request: Request, from conn: Connection) {
        carryOut(router.route(request, for: conn.session, now: clock.now), on: conn)
    }

    /// Performs what the router decided for `conn`'s session.
    func carryOut(_ effects: [SessionEffect], on conn: Connection) {
        for effect in effects {
            switch effect {
            case .reply(let reply):
                conn.send(reply)
            case .record(let record):
                conn.send(record)
            case .lines(let bytes):
                conn.send(bytes: bytes)
            case .enter(let room, let mark):
                conn.memberOf = room
                room.add(conn, mark: mark)
            case .leave(let room, let mark):
                room.remove(conn, mark: mark)
                if conn.memberOf === room { conn.memberOf = nil }
                // Held drags are about the room left: never sent after its `OK left`.
                conn.out.heldDrags.discard()
            case .paceDrags(let millis):
                conn.dragPace = Int64(millis)
                // Off, or a new pace: what is held goes now (or once a slow queue drains).
                if conn.dragsDue != nil || millis == 0 { releaseHeldDrags(of: conn) }
            case .sendEvents(let on):
                // What the room broadcast before the request goes as it would have
                // (held drags are dropped: a client following by snapshots reads none).
                conn.syncRoom()
                conn.eventsOff = !on
                if !on {
                    conn.out.heldDrags.discard()
                    connections.markPaced(conn, due: nil)
                }
            case .pause(let millis, let request):
                lifecycle.pause(conn, until: clock.now + millis, deferring: request)
            case .waitForRoom(let room, let request):
                // No end of its own: the room's arrival ends it (`collectLoadedRooms`).
                lifecycle.pause(conn, until: .max, deferring: request)
                arrivals.wait(conn, for: room)
                logger.info("\(conn.label) waits for \(room.map { "room \($0)" } ?? "every room") to load")
            case .readReplay(var read, let request):
                lifecycle.pause(conn, until: .max, deferring: request)
                read.token = conn.token
                replayReader.start(read)
            case .holdForUpload:
                lifecycle.holdForWorker(conn)
            case .encodePicture(let encoding, let request):
                lifecycle.pause(conn, until: .max, deferring: request)
                if pictureWaiters.wait(conn.token, for: encoding.key) { pictureEncoder.start(encoding) }
            case .createRoom(var creation):
                lifecycle.holdForWorker(conn)
                creation.token = conn.token
                roomCreator.start(creation)
            case .goodbye(let goodbye):
                lifecycle.sayGoodbye(conn, goodbye)
            case .supersede(let player):
                for other in Array(connections.values) where other !== conn && other.session.player == player {
                    lifecycle.sayGoodbye(other, .resumed)
                }
            case .chargeRoom(let bytes):
                thisTurn.chargeRoom(bytes)
            case .chargeHello:
                thisTurn.chargeHello()
            case .chargeCreate(let pieces):
                thisTurn.chargeCreate(pieces: pieces)
            }
        }
    }

    var connectionCount: Int { connections.count }
    var uptimeSeconds: Int64 { clock.uptimeSeconds }

    func uploadsReceiving(besides session: PlayerSession) -> Int {
        connections.values.reduce(0) { $0 + ($1.session !== session && $1.session.upload?.discarding == false ? 1 : 0) }
    }

    /// A line read while `conn` has an upload open (nil: an overlong one):
    /// whether the upload took it (otherwise it is handled as a request, or
    /// refused as too long).
    func takeUploadLine(_ conn: Connection, _ line: [UInt8]?) -> Bool {
        let (taken, effects) = router.takeUploadLine(line, session: conn.session, token: conn.token)
        carryOut(effects, on: conn)
        return taken
    }

    /// Uploads past their time: given up (once a second, with the idle sweep).
    func expireUploads() {
        for conn in Array(connections.values) where conn.session.upload != nil {
            carryOut(router.expireUpload(of: conn.session, now: clock.now), on: conn)
        }
        router.uploads.forgetRecovered(now: clock.now)
    }

    /// The uploads the worker finished: recorded (durably) and answered.
    func collectUploads() {
        for done in router.uploads.collect() {
            let conn = connections[done.token]
            let reply = router.finishUpload(done, sessionOpen: conn != nil)
            guard let conn, conn.state.isOpen else {
                if case .uploaded = reply { logger.info("upload of \(done.name) finished after its connection closed") }
                continue
            }
            if case .error(let error) = reply { self.reply(conn, error: error) } else { conn.send(reply) }
            resumeAfterWorker(conn)
        }
    }

    /// Kept replays read off the loop: the REPLAY that waited for each is
    /// answered again (now from memory), or refused.
    func collectReplays() {
        for done in replayReader.collect() {
            let (again, effects) = router.finishReplayRead(done)
            guard let conn = connections[done.read.token], conn.state.isOpen, case .paused(.max, _?) = conn.state else { continue }
            if again { resumeDeferred(conn); continue }
            lifecycle.resume(conn)
            carryOut(effects, on: conn)
            if conn.state.isActive { handleLines(conn) }
        }
    }

    /// Pictures encoded off the loop: kept by their rooms, and the PICTURE
    /// that waited for each answered again (from the room's copy).
    func collectEncodedPictures() {
        for done in pictureEncoder.collect() {
            rooms[done.encoding.room]?.keep(done.wire, format: done.encoding.format)
            for token in pictureWaiters.done(done.encoding.key) {
                guard let conn = connections[token], conn.state.isOpen, case .paused(.max, _?) = conn.state else { continue }
                resumeDeferred(conn)
            }
        }
    }

    /// Rooms made off the loop: hosted, and the CREATE that waited for each
    /// answered. A room whose asker has gone is hosted all the same.
    func collectCreatedRooms() {
        for done in roomCreator.collect() {
            let conn = connections[done.creation.token]
            let effects = router.finishCreate(done, label: conn?.label, now: clock.now)
            guard let conn, conn.state.isOpen, case .paused(.max, nil) = conn.state else { continue }
            carryOut(effects, on: conn)
            resumeAfterWorker(conn)
        }
    }

    /// paused → active once the upload's (or CREATE's) reply is queued: the
    /// lines that came meanwhile are answered.
    func resumeAfterWorker(_ conn: Connection) {
        guard case .paused(.max, nil) = conn.state else { return }
        lifecycle.resume(conn)
        handleLines(conn)
    }

    /// The session on `conn` ends: its player leaves its room, or drops from
    /// it (see `Goodbye.leavesRoom`).
    func endSession(_ conn: Connection, leaves: Bool) {
        carryOut(router.end(conn.session, leaves: leaves, serverStopping: ending != nil, now: clock.now), on: conn)
    }
}
