import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension PuzzleServer {
    func acceptConnections() {
        // Bounded so a connection storm cannot starve the connections already in.
        for _ in 0..<256 {
            guard let (socket, peer) = listener.accept(now: clock.now) else { return }
            admit(socket, peer: peer.description, host: peer.host)
        }
    }

    /// Takes `socket` as a connection from `host` (accepted, or handed over by the telnet
    /// gateway), or refuses it with a goodbye when the caps say so.
    func admit(_ socket: Socket, peer: String, host: String) {
        let admission = Admission(maxConnections: config.maxConnections, maxPerAddress: config.maxConnectionsPerAddress)
        if let (bye, why) = admission.refusal(host: host, open: connections.count, fromHost: connections.count(from: host),
                                              stopping: ending != nil) {
            stats.refusedConnections += 1
            // Logged before the goodbye goes out, so whoever sees it can find the line.
            logger.info("refused \(peer): \(why)")
            // Never a connection of the loop's: the goodbye goes straight out.
            _ = try? socket.send(bye.bytes)
            try? socket.close()
            return
        }
        let session = router.newSession(peer: peer, host: host, now: clock.now)
        let conn = connections.insert { token in
            Connection(token: token, socket: socket, session: session, maxLineLength: config.maxLineLength,
                       slowReaderRule: slowReaderRule, flushList: flushList, now: clock.now)
        }
        guard lifecycle.open(conn) else { return }
        stats.connectionsAccepted += 1
        logger.debug("connected \(peer)")
    }

    func readInput(_ conn: Connection) {
        guard !conn.inputEnded else {
            // Level-triggered hangups repeat; the connection is only waiting to flush.
            // (Not while a request waits for its turn: it is still answered.)
            if conn.out.isEmpty && conn.session.heldRequest == nil && conn.web?.hasRequestsWaiting != true {
                lifecycle.close(conn, reason: "peer closed")
            }
            return
        }
        if case .draining = conn.state { return lifecycle.drain(conn) }
        let result: IOResult
        do {
            result = try readBuffer.withUnsafeMutableBytes { (buf) throws(Errno) -> IOResult in try conn.socket.receive(into: buf) }
        } catch {
            lifecycle.close(conn, reason: "read error: \(error)")
            return
        }
        switch result {
        case .wouldBlock:
            return
        case .processed(0):
            // Stop reading; answer what is buffered, then close once flushed.
            lifecycle.endInput(conn)
            // Lines already received are still answered (possibly over several
            // turns); handleLines closes once they are all handled.
            handleLines(conn)
        case .processed(let n):
            // After a goodbye (QUIT, BYE) no further line is answered: read it
            // only to keep the kernel's buffer empty, and keep none of it.
            guard !conn.state.saidGoodbye else { return }
            readBuffer.withUnsafeBytes { receive(conn, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            handleLines(conn)
        }
    }

    /// Handles complete lines, at most `LoopTurn.linesPerTurn` per call; the rest wait
    /// for the next turn so one flooding client cannot starve the room.
    /// `beforeGoodbye`: the connection is about to be said goodbye to (a
    /// browser closed its WebSocket): what it sent is answered now, its
    /// output over the soft limit or not, since nothing waits after this.
    func handleLines(_ conn: Connection, beforeGoodbye: Bool = false) {
        // A browser's pipelined requests that waited for its output to drain.
        if conn.readsHeldBack { resumeHeldBackRequests(conn) }
        var handled = 0
        if let held = conn.session.heldRequest, conn.state.isActive {
            guard !thisTurn.mustWait(for: held) else { return thisTurn.leaveForNextTurn(conn) }
            conn.session.heldRequest = nil
            handle(held, from: conn)
            handled += 1
        }
        while conn.state.isActive {
            if !beforeGoodbye && conn.out.queuedBytes > slowReaderRule.softLimit && conn.web?.phase != .http {
                // Its output is not leaving as fast as it asks: the rest
                // waits, unread, until it does (`flush`).
                conn.linesWaitForOutput = true
                lifecycle.updateInterest(conn)
                return
            }
            guard let frame = conn.framer.next() else { break }
            conn.lastActivity = clock.now
            switch frame {
            case .overlong:
                if conn.session.upload != nil, takeUploadLine(conn, nil) { break }
                reply(conn, error: .lineTooLong(config.maxLineLength))
            case .line(let bytes):
                // An open upload's DATA lines go straight to it (no request is parsed).
                if conn.session.upload != nil, takeUploadLine(conn, Array(bytes)) { break }
                // Parsed where the framer holds it: no copy of the line.
                guard let parsed = bytes.withUnsafeBytes({ Request.parse($0) }) else { continue }
                stats.requests += 1
                switch parsed {
                case .failure(let error): reply(conn, error: error)
                case .success(let request):
                    if thisTurn.mustWait(for: request) {
                        conn.session.heldRequest = request
                        thisTurn.leaveForNextTurn(conn)
                        return
                    }
                    handle(request, from: conn)
                }
            }
            handled += 1
            if handled >= LoopTurn.linesPerTurn {
                thisTurn.leaveForNextTurn(conn)
                return
            }
        }
        // A paused connection's remaining lines are handled when its wait
        // ends; one that said goodbye or closed answers nothing more.
        guard conn.state.isActive else { return }
        // The peer ended without QUIT, and all it sent is answered: a dropped
        // link (its player may come back), not a goodbye it asked for. (A
        // browser's requests that wait for a picture or for its output to
        // drain are answered first: they come back here when they are.)
        if conn.inputEnded && conn.web?.hasRequestsWaiting != true { lifecycle.sayGoodbye(conn, .peerEnded) }
    }

    func reply(_ conn: Connection, error: ProtocolError) {
        stats.errorsSent += 1
        conn.send(.error(error))
    }

    /// Sends what the socket takes; keeps slow readers bounded (coalesce past the
    /// soft limit, disconnect past the hard limit or after the grace period).
    func flush(_ conn: Connection) {
        if conn.out.heldDrags.superseded > 0 {
            stats.coalescedDrags += conn.out.heldDrags.superseded
            conn.out.heldDrags.superseded = 0
        }
        var took = false
        while conn.out.queuedBytes > 0 {
            do {
                guard let n = try conn.out.flush(to: conn.socket) else { break }
                stats.bytesOut += n
                if n == 0 { break }
                took = true
            } catch {
                lifecycle.close(conn, reason: "write error: \(error)")
                return
            }
        }
        // Since when the socket has taken nothing of what is still queued.
        if conn.out.queuedBytes == 0 {
            conn.stalledSince = nil
        } else if took || conn.stalledSince == nil {
            conn.stalledSince = clock.now
        }
        switch slowReaderRule.judge(queuedBytes: conn.out.queuedBytes, overSoftSince: conn.overSoftSince, now: clock.now,
                                    answersOnly: conn.web?.phase == .http, stalledSince: conn.stalledSince) {
        case .disconnect(let why):
            return lifecycle.sayGoodbye(conn, .slow(why))
        case .overSoftLimit(let since):
            connections.markOverSoft(conn, since: since)
        case .underSoftLimit:
            connections.markOverSoft(conn, since: nil)
            // A slow reader's held drags go once it drains (a paced member's wait for their tick).
            if !conn.out.heldDrags.isEmpty && conn.dragsDue == nil {
                conn.out.releaseHeldDrags()
                flush(conn)
                return
            }
            // Pipelined HTTP requests waited for this: answered next turn
            // with the other lines (not here: replies made at the end of a
            // turn would leave before the turn's moves are durable).
            if conn.readsHeldBack && conn.state.isActive { thisTurn.leaveForNextTurn(conn) }
            // So did lines, for the same reason.
            if conn.linesWaitForOutput {
                conn.linesWaitForOutput = false
                lifecycle.updateInterest(conn)
                if conn.state.isActive { thisTurn.leaveForNextTurn(conn) }
            }
        }
        let wantWrite = conn.out.queuedBytes > 0
        if wantWrite != conn.waitingForWritable {
            conn.waitingForWritable = wantWrite
            lifecycle.updateInterest(conn)
        }
        if !wantWrite, case .closingAfterGoodbye = conn.state {
            thisTurn.closeAtEnd(conn)
        }
    }

    /// Disconnects readers whose grace period ran out while their room was
    /// quiet: the check in `flush` only runs when output is queued or the
    /// socket takes more, and a stalled reader in a silent room gets neither.
    func enforceSlowReaderGrace() {
        guard !connections.overSoft.isEmpty else { return }
        for conn in Array(connections.overSoft.values) {
            guard let since = conn.overSoftSince, clock.now >= slowReaderRule.graceEnds(since: since) else { continue }
            // flush sends what the socket takes now, then applies the limits.
            flush(conn)
        }
    }

    /// Clean shutdown: stop accepting, say goodbye, flush for up to 2 s,
    /// snapshot every room.
    func shutdown() throws {
        // No more rooms come in: the loader touches no file after this.
        arrivals.loader.stop()
        // The telnet sessions end first: their players' links drop like any others.
        stopTelnet()
        listener.close()
        // Already said goodbye: take what they sent, then close, without
        // waiting for their end of stream.
        for conn in Array(connections.draining.values) {
            lifecycle.drain(conn)
            lifecycle.close(conn, reason: "shutdown")
        }
        for conn in Array(connections.values) { lifecycle.sayGoodbye(conn, .shutdown) }
        keeper.endEveryStay(now: clock.now)
        finishTurn()
        if let failure = ending?.failure {
            // The last turn's moves could not be kept: none of its replies may go out.
            abortEverything()
            throw failure
        }
        let deadline = MonotonicClock.nowMilliseconds + 2000
        while !connections.isEmpty && MonotonicClock.nowMilliseconds < deadline {
            let ready = try queue.wait(timeoutMillis: 50)
            clock.tick(at: MonotonicClock.nowMilliseconds)
            for event in ready {
                guard let conn = connections[event.token] else { continue }
                if event.writable { flush(conn) }
                if event.readable || event.hangup { readInput(conn) }
            }
            for conn in thisTurn.takeClosing() { lifecycle.finishClosing(conn, now: clock.now, serverStopping: ending != nil) }
        }
        for conn in Array(connections.values) { lifecycle.close(conn, reason: "shutdown") }
        // Rooms being made are finished and hosted (their askers are gone),
        // and uploads being stored are stored, before the data is let go.
        roomCreator.waitUntilIdle()
        collectCreatedRooms()
        router.uploads.waitUntilIdle()
        for room in rooms.values { keeper.snapshot(room, now: clock.now) }
        store.close()
        dataLock.release()
        logger.info("shut down cleanly")
    }

    /// Paced members (`PACE`) that began holding drags this turn: theirs go
    /// out one pace from now.
    func startPacedHolds() {
        guard !flushList.startedHolding.isEmpty else { return }
        for conn in flushList.startedHolding where conn.dragPace > 0 && conn.dragsDue == nil && !conn.out.heldDrags.isEmpty {
            connections.markPaced(conn, due: clock.now + conn.dragPace)
        }
        flushList.startedHolding.removeAll(keepingCapacity: true)
    }

    /// Paced members whose tick has come: their held drags are queued.
    func releaseDueDrags() {
        guard !connections.paced.isEmpty else { return }
        var due: [Connection] = []
        for conn in connections.paced.values where conn.dragsDue.map({ $0 <= clock.now }) ?? false { due.append(conn) }
        for conn in due { releaseHeldDrags(of: conn) }
    }

    /// Queues `conn`'s held drags now, unless its queue is over the soft
    /// limit: then they go when it drains (`flush`).
    func releaseHeldDrags(of conn: Connection) {
        connections.markPaced(conn, due: nil)
        guard conn.state.isOpen, !conn.out.heldDrags.isEmpty,
              !slowReaderRule.coalescesDrags(queuedBytes: conn.out.queuedBytes, socketFull: conn.waitingForWritable) else { return }
        conn.out.releaseHeldDrags()
        conn.markDirty()
    }
}
