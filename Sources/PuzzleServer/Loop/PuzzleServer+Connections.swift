import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

extension Connection {
    var connectionIsOpen: Bool { !isClosed }
}

extension PuzzleServer {
    func acceptConnections() {
        guard let listener else { return }
        // Bounded so a connection storm cannot starve the connections already in.
        for _ in 0..<256 {
            let result: Socket.AcceptResult
            do {
                result = try listener.accept()
            } catch {
                // Out of descriptors: the listener stays readable, so stop
                // watching it for a moment instead of spinning on it.
                logger.warn("accept failed: \(error); pausing accepts for 100 ms")
                try? queue.modify(listener.descriptor, interest: [], token: Self.listenerToken)
                acceptsPausedUntil = now + 100
                return
            }
            guard case .accepted(let socket, let peer) = result else { return }
            if let (bye, why) = refusal(of: peer) {
                stats.refusedConnections += 1
                // Logged before the goodbye goes out, so whoever sees it can find the line.
                logger.info("refused \(peer): \(why)")
                _ = try? socket.send(Array((bye + "\n").utf8))
                try? socket.close()
                continue
            }
            try? socket.setNoDelay(true)
            if config.socketSendBuffer > 0 { try? socket.setSendBufferSize(config.socketSendBuffer) }
            let token = nextToken
            nextToken += 1
            let burst = Double(max(config.dragRateLimit, 1))
            let conn = Connection(token: token, socket: socket, peer: peer, maxLineLength: config.maxLineLength,
                                  softLimit: config.outputSoftLimit, flushList: flushList, now: now, dragBurst: burst,
                                  chatBurst: Double(config.chatBurst))
            do {
                try queue.register(socket.descriptor, interest: .readable, token: token)
            } catch {
                logger.warn("cannot watch \(peer): \(error)")
                try? socket.close()
                continue
            }
            connections[token] = conn
            connectionsPerHost[conn.host, default: 0] += 1
            stats.connectionsAccepted += 1
            logger.debug("connected \(peer)")
        }
    }

    /// The goodbye line and the log reason for a connection that may not stay,
    /// or nil when it may.
    private func refusal(of peer: SocketAddress) -> (bye: String, why: String)? {
        if shuttingDown {
            return ("BYE SHUTDOWN server is shutting down", "shutting down")
        }
        if connections.count >= config.maxConnections {
            return ("BYE FULL server is full (\(config.maxConnections) connections)", "full")
        }
        let perAddress = config.maxConnectionsPerAddress
        if perAddress > 0, connectionsPerHost[peer.host, default: 0] >= perAddress {
            return ("BYE FULL too many connections from \(peer.host) (limit \(perAddress))",
                    "already \(perAddress) connections from \(peer.host) (max_connections_per_address)")
        }
        return nil
    }

    func readInput(_ conn: Connection) {
        guard !conn.readClosed else {
            // Level-triggered hangups repeat; the connection is only waiting to flush.
            if conn.out.isEmpty { close(conn, reason: "peer closed") }
            return
        }
        if conn.lingerUntil != nil { return drainLingering(conn) }
        let result: IOResult
        do {
            result = try readBuffer.withUnsafeMutableBytes { (buf) throws(Errno) -> IOResult in try conn.socket.receive(into: buf) }
        } catch {
            close(conn, reason: "read error: \(error)")
            return
        }
        switch result {
        case .wouldBlock:
            return
        case .processed(0):
            conn.readClosed = true
            // Stop reading; answer what is buffered, then close once flushed.
            updateInterest(conn)
            // Lines already received are still answered (possibly over several
            // turns); handleLines closes once they are all handled.
            handleLines(conn)
        case .processed(let n):
            // After a goodbye (QUIT, BYE) no further line is answered: read it
            // only to keep the kernel's buffer empty, and keep none of it.
            guard !conn.closeAfterFlush else { return }
            readBuffer.withUnsafeBytes { conn.framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            handleLines(conn)
        }
    }

    /// What the loop should watch a connection for: input unless the peer has
    /// ended it or the connection is paused, and room to write while output waits.
    func updateInterest(_ conn: Connection) {
        var interest: Interest = []
        if !conn.readClosed && conn.pausedUntil == nil { interest.insert(.readable) }
        if conn.waitingForWritable { interest.insert(.writable) }
        try? queue.modify(conn.socket.descriptor, interest: interest, token: conn.token)
    }

    /// Handles complete lines, at most `linesPerTurn` per call; the rest wait
    /// for the next turn so one flooding client cannot starve the room.
    func handleLines(_ conn: Connection) {
        var handled = 0
        while conn.connectionIsOpen && !conn.closeAfterFlush && conn.pausedUntil == nil, let frame = conn.framer.next() {
            conn.lastActivity = now
            switch frame {
            case .overlong:
                conn.linesHandled += 1
                reply(conn, error: .lineTooLong(config.maxLineLength))
            case .line(let bytes):
                conn.linesHandled += 1
                if conn.linesHandled == 1 && Self.looksLikeHTTP(bytes) {
                    conn.send("ERR HTTP this is a puzzle-room server (line protocol), not a web server")
                    conn.closeAfterFlush = true
                    conn.closeReason = "HTTP request"
                    return
                }
                guard let parsed = Request.parse(bytes) else { continue }
                stats.requests += 1
                switch parsed {
                case .failure(let error): reply(conn, error: error)
                case .success(let request): handle(request, from: conn)
                }
            }
            handled += 1
            if handled >= Self.linesPerTurn {
                backlog.append(conn)
                return
            }
        }
        // A paused connection's remaining lines are handled when its wait ends.
        if conn.pausedUntil != nil { return }
        if conn.readClosed && !conn.closeAfterFlush && conn.connectionIsOpen {
            // The peer ended without QUIT: a dropped link, not a goodbye.
            dropFromRoom(conn)
            conn.closeAfterFlush = true
            conn.closeReason = "peer closed"
            conn.markDirty()
        }
    }

    static func looksLikeHTTP(_ line: [UInt8]) -> Bool {
        let text = String(decoding: line.prefix(64), as: UTF8.self)
        let methods = ["GET ", "POST ", "HEAD ", "PUT ", "DELETE ", "OPTIONS ", "CONNECT ", "PATCH ", "TRACE "]
        return methods.contains { text.hasPrefix($0) } && String(decoding: line, as: UTF8.self).contains(" HTTP/")
    }

    func reply(_ conn: Connection, error: ProtocolError) {
        stats.errorsSent += 1
        conn.send(.error(error))
    }

    /// Sends what the socket takes; keeps slow readers bounded (coalesce past the
    /// soft limit, disconnect past the hard limit or after the grace period).
    func flush(_ conn: Connection) {
        if conn.out.coalescedCount > 0 {
            stats.coalescedDrags += conn.out.coalescedCount
            conn.out.coalescedCount = 0
        }
        while conn.out.queuedBytes > 0 {
            do {
                guard let n = try conn.out.flush(to: conn.socket) else { break }
                stats.bytesOut += n
                if n == 0 { break }
            } catch {
                close(conn, reason: "write error: \(error)")
                return
            }
        }
        if conn.out.queuedBytes > config.outputHardLimit {
            disconnectSlow(conn, why: "output queue over \(config.outputHardLimit) bytes")
            return
        }
        if conn.out.queuedBytes > config.outputSoftLimit {
            if conn.overSoftSince == nil {
                conn.overSoftSince = now
                slowReaders[conn.token] = conn
            }
            if let since = conn.overSoftSince, now - since > Int64(config.slowReaderGraceMillis) {
                disconnectSlow(conn, why: "reader too slow for \(config.slowReaderGraceMillis) ms")
                return
            }
        } else {
            if conn.overSoftSince != nil {
                conn.overSoftSince = nil
                slowReaders[conn.token] = nil
            }
            if !conn.out.coalescedDrags.isEmpty {
                conn.out.releaseCoalescedDrags()
                flush(conn)
                return
            }
        }
        let wantWrite = conn.out.queuedBytes > 0
        if wantWrite != conn.waitingForWritable {
            conn.waitingForWritable = wantWrite
            updateInterest(conn)
        }
        if !wantWrite && conn.closeAfterFlush {
            closing.append(conn)
        }
    }

    /// Disconnects readers whose grace period ran out while their room was
    /// quiet: the check in `flush` only runs when output is queued or the
    /// socket takes more, and a stalled reader in a silent room gets neither.
    func enforceSlowReaderGrace() {
        guard !slowReaders.isEmpty else { return }
        let grace = Int64(config.slowReaderGraceMillis)
        for conn in Array(slowReaders.values) {
            guard let since = conn.overSoftSince, now - since > grace else { continue }
            // flush sends what the socket takes now, then applies the limits.
            flush(conn)
        }
    }

    func disconnectSlow(_ conn: Connection, why: String) {
        stats.slowReaderDisconnects += 1
        logger.warn("disconnecting slow reader \(conn.label): \(why)")
        // Best effort: the queue is full, so say goodbye past it.
        _ = try? conn.socket.send(Array("\nBYE SLOW \(why)\n".utf8))
        // Abortive close: the kernel would otherwise keep megabytes queued for a
        // peer that is not reading.
        close(conn, reason: "slow reader", abort: true)
    }

    /// Closes a connection now; its player leaves its room (holds are released).
    func close(_ conn: Connection, reason: String, abort: Bool = false) {
        guard !conn.isClosed else { return }
        conn.isClosed = true
        // Still in a room here means the link dropped without a goodbye.
        dropFromRoom(conn)
        try? queue.deregister(conn.socket.descriptor)
        if abort { try? conn.socket.abort() } else { try? conn.socket.close() }
        connections[conn.token] = nil
        slowReaders[conn.token] = nil
        pausedConnections[conn.token] = nil
        lingering[conn.token] = nil
        if let count = connectionsPerHost[conn.host] {
            connectionsPerHost[conn.host] = count > 1 ? count - 1 : nil
        }
        logger.debug("closed \(conn.label): \(reason)")
    }

    /// Closes connections idle past the timeout.
    func sweepIdle() {
        lastSweep = now
        passwordThrottle.forgetRecovered(now: now)
        guard config.idleTimeoutSeconds > 0 else { return }
        let limit = Int64(config.idleTimeoutSeconds) * 1000
        // Lingering connections have their own deadline.
        for conn in Array(connections.values) where now - conn.lastActivity > limit && conn.lingerUntil == nil {
            if conn.closeAfterFlush {
                // Said goodbye a whole idle period ago and the peer still is not
                // reading it: stop waiting.
                if now - conn.lastActivity > 2 * limit { close(conn, reason: "idle, not reading", abort: true) }
                continue
            }
            conn.send("BYE IDLE no request for \(config.idleTimeoutSeconds) s")
            leaveRoom(conn)
            conn.closeAfterFlush = true
            conn.closeReason = "idle"
        }
    }

    /// Clean shutdown: stop accepting, say goodbye, flush for up to 2 s,
    /// snapshot every room.
    func shutdown() throws {
        if let listener {
            try? queue.deregister(listener.descriptor)
            try? listener.close()
            self.listener = nil
        }
        // Already said goodbye: take what they sent, then close, without
        // waiting for their end of stream.
        for conn in Array(lingering.values) {
            drainLingering(conn)
            close(conn, reason: "shutdown")
        }
        for conn in connections.values {
            conn.send("BYE SHUTDOWN server is shutting down")
            leaveRoom(conn)
            conn.closeAfterFlush = true
            conn.closeReason = "shutdown"
        }
        for (player, away) in awayPlayers where away.room.state.players[player] != nil {
            performRegardless(.leave, in: away.room, by: player)
        }
        awayPlayers.removeAll()
        finishTurn()
        if let failure {
            // The last turn's moves could not be kept: none of its replies may go out.
            abortEverything()
            throw failure
        }
        let deadline = MonotonicClock.nowMilliseconds + 2000
        while !connections.isEmpty && MonotonicClock.nowMilliseconds < deadline {
            let ready = try queue.wait(timeoutMillis: 50)
            now = MonotonicClock.nowMilliseconds
            for event in ready {
                guard let conn = connections[event.token] else { continue }
                if event.writable { flush(conn) }
                if event.readable || event.hangup { readInput(conn) }
            }
            let done = closing
            closing.removeAll()
            for conn in done { finishClosing(conn) }
        }
        for conn in Array(connections.values) { close(conn, reason: "shutdown") }
        for room in rooms.values { snapshot(room) }
        store.close()
        dataLock.release()
        logger.info("shut down cleanly")
    }
}
