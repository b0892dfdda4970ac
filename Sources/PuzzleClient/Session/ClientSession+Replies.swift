import PuzzleCore
import PuzzleProtocol

/// Server lines: replies matched to requests in order, state lines, goodbyes.
extension ClientSession {
    /// Handles one line from the server (without its terminator).
    public mutating func receive(_ line: Substring, now: Int64) {
        // Told apart by their bytes: an event (most lines) goes to its decoder as it came.
        var contiguous = line
        let kind = contiguous.withUTF8 { ServerLine.kind(of: UnsafeRawBufferPointer($0)) }
        switch kind {
        case .event:
            if eventFlood != nil, skipsInFlood(&contiguous, now: now) { return }
            handleEvent(line, now: now)
        case .state:
            // Bounded: a snapshot has one line per piece (at most 10 000) plus the picture, a replay one per move.
            if stateLines.count < PuzzleReplay.maxMoves + 20_000 { stateLines.append(String(line)) }
        case .bye:
            if let bye = WireGoodbye.decode(line) {
                emit(.info, "server closed the connection: \(bye)")
            } else {
                emit(.info, "unexpected line: \(line.prefix(120))")
            }
        case .ok, .error, .pong:
            let state = stateLines
            stateLines.removeAll()
            guard !pending.isEmpty else {
                emit(.info, "unexpected reply: \(line.prefix(120))")
                return
            }
            let request = pending.removeFirst()
            let text = line.drop { $0 != " " }.dropFirst()
            if kind == .ok, case .drag = request.request {
                // Where the piece went is in the drag's event too (every member gets it,
                // the dragger as well), which moved the mirror before this reply; unless
                // the drags are paced or the room is followed by snapshots (`dragAccepted`).
                dragAccepted(text: text, to: request, now: now)
                return
            }
            guard let reply = contiguous.withUTF8({ ReplyCodec.decode(UnsafeRawBufferPointer($0)) }) else {
                emit(.info, "unreadable reply: \(line.prefix(120))")
                return
            }
            handleReply(reply, text: text, to: request, state: state, now: now)
        case .unknown:
            emit(.info, "unexpected line: \(line.prefix(120))")
        }
    }

    /// The OK to a drag: said (in plain mode) if the player asked for it, with its note.
    mutating func dragAccepted(text: Substring, to p: PendingRequest, now: Int64) {
        guard answered(p) else { return }
        // With the drags paced, the player's own drag event comes after this
        // reply (held for the pace), and in a flood not at all: the reply moves
        // the hold as its event would have (a held one coming later is as new or newer).
        if dragPace != nil || eventFlood?.isFlooded == true || eventFlood?.eventsOff == true,
           let me = myID, let seq = mirror?.state.seq,
           case .dragged(let piece, let point, let target)? = ReplyCodec.decode(Substring("OK \(text)")) {
            try? mirror?.state.apply(RoomEvent(seq: seq, time: now, body: .dragged(piece: piece, by: me, to: point, target: target)))
        }
        if p.fromUser, tellsDrags { emit(.reply, text.isEmpty ? "ok" : "ok: \(text)", about: .reply(to: p.request)) }
        if let note = p.successNote { emit(.info, note) }
    }

    /// What every answer settles, whatever it says; false when it is stale.
    mutating func answered(_ p: PendingRequest) -> Bool {
        // Sent behind a refused HELLO and sent again since: its answer is stale.
        if p.orphaned { return false }
        if case .drag = p.request, !pending.contains(where: { if case .drag = $0.request { return true } else { return false } }) {
            hand.dragSettled()
        }
        return true
    }

    /// `text` is the line after its first word, for showing the player.
    mutating func handleReply(_ reply: Reply, text: Substring, to p: PendingRequest, state: [String], now: Int64) {
        guard answered(p) else { return }
        switch reply {
        case .pong:
            if case .ping = p.request { rttMillis = max(0, now - p.sentAt) }
        case .error(let e):
            handleRefusal(code: e.code, message: e.message, to: p)
        default:
            handleSuccess(reply, text: String(text), to: p, state: state, now: now)
        }
    }

    mutating func handleRefusal(code: ErrorCode, message: String, to p: PendingRequest) {
        if case .hello(_, _, let token?) = p.request, code == .badToken, token == resumeToken {
            // The server no longer knows the kept token (its data was reset, or
            // it is another server on that address): greet again as a new player.
            // What was pipelined behind the refused HELLO will be refused too.
            resumeToken = nil
            for i in pending.indices { pending[i].orphaned = true }
            emit(.info, "the server does not know this player any more: joining as a new one")
            connectedAgain(now: p.sentAt)
            return
        }
        if case .join = p.request { awayFrom = nil }
        if case .rejoin = p.request { awayFrom = nil }
        // A name taken by another picture: the same file again under the next
        // name (trip-2, trip-3, ...); any other refusal ends the upload, and
        // the error says why (below).
        switch p.request {
        case .upload, .data:
            if let retry = uploads.refused(code) { return apply(retry, now: p.sentAt) }
        default: break
        }
        // In a flood the table lags the room: a move refused for what the
        // player could not see yet (a solve, another's grab) shows the room now.
        if p.request.isPlay, code != .rateLimited { catchUpWithFlood(now: p.sentAt, force: true) }
        switch p.request {
        case .pace:
            // A server without PACE sends every drag as it comes: nothing to tell.
            return
        case .events(let on):
            // A server without EVENTS sends every event: they are skipped unread.
            if !on { eventFlood?.eventsOff = false }
            return
        case .join where p.fromUser, .watch where p.fromUser:
            // A /join refused: back to the room the player was in, if any.
            emit(.error, "error \(code): \(message)")
            failedCommands += 1
            if let back = seat.refused() {
                // A refused switch: the server kept the player in its room.
                phase = .joined
                emit(.info, back.watching ? "you go on watching \(back.name)" : "you stay in \(back.name)")
            } else {
                phase = .choosingRoom
            }
        case .join(let target, let secret) where code == .roomFull, .rejoin(let target, _, _, let secret) where code == .roomFull:
            // A full room at start-up or on a return: watch it rather than give up.
            seat.watchInstead()
            emit(.info, "\(target) is full: watching it (/join \(target) when a seat is free)")
            send(.watch(room: target, password: secret), fromUser: false, now: p.sentAt)
        case .join(let target, _) where target == goingBack, .watch(let target, _) where target == goingBack:
            // Going back to the room of the last run, refused (gone since
            // the list, a password, full): the rooms to pick from instead.
            goingBack = nil
            lastRoom = nil
            emit(.info, "cannot go back to \(target): \(code) \(message)")
            _ = seat.refused()
            phase = .choosingRoom
            send(.rooms, fromUser: false, now: p.sentAt)
        case .hello, .join, .rejoin, .watch:
            guard phase != .finished else { return }
            fatalError = "\(p.request.verb) refused: \(code) \(message)"
            phase = .finished
            pending.removeAll()
            emit(.error, "error \(code): \(message)")
        case .sync:
            syncing = false
            emit(.error, "error \(code): \(message)")
        default:
            if p.fromUser {
                failedCommands += 1
                emit(.error, "error \(code): \(message)")
            }
        }
    }

    mutating func handleSuccess(_ reply: Reply, text: String, to p: PendingRequest, state: [String], now: Int64) {
        defer { if let note = p.successNote { emit(.info, note) } }
        switch p.request {
        case .grab, .drop, .release, .rotate:
            // In a flood the table lags the room: the player's own move shows at once.
            catchUpWithFlood(now: now, force: true)
        default: break
        }
        switch p.request {
        case .hello:
            if case .hello(_, _, _, let token?) = reply { resumeToken = token }
        case .join, .rejoin, .watch:
            var caughtUp = false
            var serverSeq: UInt64?
            var watches: Bool?
            if case .joined(_, let id, let seq, let run, let missed) = reply {
                myID = id
                roomRun = run
                serverSeq = seq
                watches = false
                // The events it missed came before this reply and are applied: no snapshot.
                caughtUp = missed != nil && self.state != nil
            }
            if case .watching(_, _, let run) = reply {
                roomRun = run
                watches = true
            }
            seat.entered(watching: watches)
            goingBack = nil
            if watches == false { lastRoom = room }
            if caughtUp {
                roster.adoptWatchers(from: state)
                adoptClock(from: state, now: now)
            }
            if caughtUp || installSnapshot(state, now: now), let st = self.state {
                phase = .joined
                if watching {
                    emit(.info, "watching \(room ?? "?"): puzzle \(st.puzzleIndex) \(st.spec.kind.rawValue) \(st.spec.rows)x\(st.spec.cols), \(st.players.count) player\(st.players.count == 1 ? "" : "s"); /join \(room ?? "") to play")
                    return
                }
                // One of the missed events did not apply: reload the room.
                if caughtUp, let seq = serverSeq, st.seq != seq { requestSync(now: now) }
                let p = st.progress(at: now)
                emit(.info, "joined \(room ?? "?") as \(name) (#\(myID?.rawValue ?? 0)): puzzle \(st.puzzleIndex) \(st.spec.kind.rawValue) \(st.spec.rows)x\(st.spec.cols), \(p.correct)/\(p.total) placed, \(st.players.count) player\(st.players.count == 1 ? "" : "s")")
                // Back after a dropped link: the server kept what this player held.
                if let me = myID, let held = st.players[me]?.holding, !held.isEmpty {
                    emit(.info, "you still hold piece\(held.count == 1 ? "" : "s") \(held.map(String.init).joined(separator: ", ")): kept for you while the connection was down")
                }
                if let before = awayFrom, let summary = AwaySummary.text(before: before, after: st, me: myID, now: now) {
                    emit(.info, summary)
                }
                awayFrom = nil
            } else {
                fatalError = "the room snapshot could not be read"
                phase = .finished
            }
        case .sync, .syncFrom:
            syncing = false
            // A flood's catch-up is no news: it comes twice a second.
            let floodCatchUp = eventFlood?.isBehind == true && !p.fromUser
            var caughtUp = false
            if case .synced(_, _, let run, let missed) = reply {
                roomRun = run
                caughtUp = missed != nil && self.state != nil
            }
            if caughtUp {
                roster.adoptWatchers(from: state)
                adoptClock(from: state, now: now)
            }
            if caughtUp || installSnapshot(state, now: now) {
                if p.fromUser {
                    emit(.reply, "ok: \(text)")
                } else if !floodCatchUp {
                    emit(.info, "resynced at seq \(self.state?.seq ?? 0)", about: .resync)
                }
            }
        case .picture:
            // Kept by its hash, and shown if the room still has that picture.
            if case .picture(let w, let h, let hash) = reply {
                guard let picture = PictureCache.decode(lines: state, width: w, height: h, hash: hash) else {
                    emit(.error, "error PICTURE: the picture sent could not be read")
                    return
                }
                pictures.insert(picture, hash: hash)
                if mirror?.pictureHash == hash { mirror?.picture = picture }
            }
        case .quit:
            phase = .finished
            emit(.reply, "ok: \(text)")
        case .create where p.fromUser:
            emit(.reply, "ok: \(text)", about: .reply(to: p.request))
            // A piece count is cut to the picture's shape: say so when it moved.
            if case .created(let name, let rows?, let cols?, let asked?) = reply, rows * cols != asked {
                emit(.info, "\(name) is \(rows)x\(cols): \(rows * cols) pieces for the \(asked) asked, the nearest count that keeps the picture's shape")
            }
        case .rooms where !p.fromUser:
            // The start-up list: shown only when the player has a choice to make.
            if phase == .choosingRoom {
                chooseRoom(from: state, now: now)
            }
        case .upload:
            // The server's go-ahead: every DATA line at once (the server reads
            // them in order; nothing else is sent between them), awaiting one reply.
            if case .uploadReady(_, _, let characters) = reply, uploads.job != nil {
                pending.append(PendingRequest(request: .data([]), fromUser: true, sentAt: now))
                outgoing += uploads.dataRequests(charactersPerLine: characters)
            }
        case .data:
            if case .uploaded(let name, let width, let height, _) = reply { apply(uploads.stored(name, width: width, height: height), now: now) }
        case .keep:
            // The server renewed the lease: the mirror's count starts again too.
            if case .kept(let piece, let left) = reply { mirror?.state.apply(.kept(piece: piece, until: now + left)) }
        case .history(let puzzle):
            apply(replays.history(state, puzzle: puzzle, text: text, fromUser: p.fromUser, table: self.state), now: now)
        case .replay:
            apply(replays.page(state, reply: reply), now: now)
        case .who, .rooms:
            for line in state {
                // "S who 1 carol ..." reads "  who 1 carol ..." in plain mode (scripts read it);
                // the window shows it as a player reads it.
                emit(.reply, "  " + line.dropFirst(2), about: .listing(.entry(PlayerText.listingEntry(line))))
            }
            emit(.reply, "ok: \(text)", about: .listing(.end))
        default:
            if p.fromUser { emit(.reply, text.isEmpty ? "ok" : "ok: \(text)", about: .reply(to: p.request)) }
        }
    }

    /// The start-up room list: the only room is joined; with several the player picks.
    mutating func chooseRoom(from lines: [String], now: Int64) {
        let choice = roomPicker.read(lines, back: lastRoom)
        if let why = roomPicker.notBack { emit(.info, why) }
        switch choice {
        case .back(let name):
            emit(.info, "back to \(name), the room you were in")
            goingBack = name
            let request = seat.takeOnly(name)
            phase = .joining
            send(request, fromUser: false, now: now)
        case .none:
            emit(.info, "the server has no rooms: /create NAME jigsaw 4x4 makes one, then /join NAME")
        case .only(let name):
            let request = seat.takeOnly(name)
            phase = .joining
            send(request, fromUser: false, now: now)
        case .pick(let names):
            // A choice to make, not news: the full screen opens a window with it.
            emit(.info, "pick a room: /join NAME [PASSWORD] (rooms: \(names.joined(separator: ", ")))")
        }
    }

    /// A catch-up's `S clock <elapsed-ms> running|paused`: the room's clock now.
    mutating func adoptClock(from lines: [String], now: Int64) {
        for line in lines {
            guard case .clock(let elapsed, let running)? = StateRecordCodec.decode(Substring(line)) else { continue }
            mirror?.state.adoptClock(elapsed: elapsed, running: running, at: now)
        }
    }

    /// Replaces the mirror with a snapshot; false (and a message) if it cannot be read.
    mutating func installSnapshot(_ lines: [String], now: Int64) -> Bool {
        do {
            var snap = try SnapshotCodec.decode(lines.map { Substring($0) }, now: now)
            if snap.picture == nil, let hash = snap.pictureHash, let size = snap.pictureSize {
                // A compact snapshot names the picture: the one kept (or
                // drawn here) if it is that one, else ask for its pixels.
                snap.picture = pictures.picture(hash: hash, name: snap.state.spec.picture, width: size.width, height: size.height)
                // As a JPEG: a fifth of a PNG's bytes, and a terminal's
                // half-block pixels show no difference.
                if snap.picture == nil, !pending.contains(where: { if case .picture = $0.request { true } else { false } }) {
                    send(.picture(.jpeg), fromUser: false, now: now)
                }
            }
            let roomBefore = mirror?.name
            let puzzleBefore = mirror?.state.puzzleIndex
            mirror = snap
            followFlood(snapshot: snap.state.seq, sameRoom: roomBefore == snap.name, puzzleBefore: puzzleBefore,
                        puzzle: snap.state.puzzleIndex, now: now)
            stack.reset()
            roster.met(playersOf: snap.state)
            roster.adoptWatchers(from: lines)
            solvedBanner = snap.state.solveMillis.map { PlayerText.solved(puzzle: snap.state.puzzleIndex, millis: $0) }
            // The numbers belong to one room's solved puzzle: another room's
            // puzzle 0, or this one not solved, must ask for its own.
            replays.tableChanged(solvedPuzzle: snap.state.isSolved ? snap.state.puzzleIndex : nil, sameRoom: roomBefore == snap.name)
            if snap.state.isSolved { requestSolvedStats(snap.state.puzzleIndex, now: now) }
            return true
        } catch {
            emit(.error, "error SNAPSHOT: \(error)")
            return false
        }
    }
}
