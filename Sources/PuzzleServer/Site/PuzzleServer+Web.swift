import PuzzleCore
import PuzzleSystem
import PuzzleWeb

/// Browsers on the game's port: the first bytes tell HTTP from protocol
/// lines; an HTTP connection gets the page, and a WebSocket at `/ws` then
/// carries the same lines as TCP, through the same framer, handlers and
/// output queue, so every limit of a TCP connection holds for it too.
extension PuzzleServer {
    /// Takes bytes read from `conn`, whatever it speaks.
    func receive(_ conn: Connection, _ bytes: UnsafeRawBufferPointer) {
        conn.lastReceived = clock.now
        switch conn.transport {
        case .lines:
            conn.framer.append(bytes)
        case .undecided:
            // A request head's clock starts at its first byte, not once its
            // method is told (a head sent a byte a second is not given the
            // bytes of its method for free).
            if conn.firstBytes.isEmpty { conn.firstByteAt = clock.now }
            conn.firstBytes.append(contentsOf: bytes)
            let first = conn.firstBytes
            switch ConnectionTransport.classify(first) {
            case .undecided:
                return
            case .lines:
                conn.transport = .lines
                conn.firstBytes = []
                conn.framer.append(first)
            case .web:
                conn.transport = .web
                conn.firstBytes = []
                conn.web = WebSession(site: site, limits: httpLimits, maxMessage: config.maxLineLength)
                stats.webConnections += 1
                perform(conn.web!.receive(first, now: conn.firstByteAt, outputRoom: outputRoom(conn)), on: conn)
            }
        case .web:
            guard conn.web != nil else { return }
            perform(conn.web!.receive(bytes, now: clock.now, outputRoom: outputRoom(conn)), on: conn)
        }
    }

    /// How many more bytes `conn`'s output takes before pipelined HTTP
    /// requests wait for it to drain: the slow-reader soft limit, so a
    /// client that reads is never cut off for the answers it asked for all
    /// at once, and one that stops reading stays over it and is dropped
    /// by the slow-reader rule.
    func outputRoom(_ conn: Connection) -> Int {
        slowReaderRule.softLimit - conn.out.queuedBytes
    }

    /// Once `conn`'s output is back under its limit: the HTTP requests that
    /// waited for it are answered (called with the connection's lines, so
    /// its replies keep the turn's order of durability), and its input is
    /// read again.
    func resumeHeldBackRequests(_ conn: Connection) {
        guard conn.web?.isHeldBack == true, conn.state.isActive, outputRoom(conn) >= 0 else { return }
        perform(conn.web!.outputDrained(now: clock.now, outputRoom: outputRoom(conn)), on: conn)
    }

    /// Carries out what a connection's web session asks for.
    func perform(_ actions: [WebSession.Action], on conn: Connection) {
        for action in actions {
            switch action {
            case .send(let bytes):
                conn.lastActivity = clock.now
                conn.sendWire(bytes)
            case .line(let bytes):
                // One message, one line: through the framer like a TCP line
                // (its checks, its length limit, its pacing).
                // Through the framer's buffer overload: the generic one is not
                // specialised across modules and cost browsers ~6% of the
                // server's CPU at the relay's top rate (perf).
                bytes.withUnsafeBytes { conn.framer.append($0) }
                withUnsafeBytes(of: UInt8(ascii: "\n")) { conn.framer.append($0) }
            case .picture(let room, let width, let head):
                conn.lastActivity = clock.now
                // Drawn now if cached or refused; else later, on the renderer's thread.
                // `puzzle=`: a solved puzzle's picture (a replay's), which may not be the room's now.
                let hosted = rooms[room]
                var spec = hosted?.state.spec, missing: String?
                if let hosted, let puzzle = WebSite.picturePuzzle(head) ?? nil, puzzle != hosted.state.puzzleIndex {
                    spec = hosted.history.first { $0.puzzle == puzzle }?.spec
                    missing = "room '\(room)' keeps no replay of puzzle \(puzzle)"
                }
                if let response = browserPictures.response(room: room, spec: spec, missing: missing, width: width, head: head,
                                                           token: conn.token, pictures: router.pictures) {
                    perform(conn.web?.answerPicture(response, now: clock.now, outputRoom: outputRoom(conn)) ?? [], on: conn)
                }
            case .upgraded:
                conn.out.framesLines = true
                stats.webSockets += 1
                logger.debug("WebSocket opened by \(conn.peer)")
            case .endHTTP(let why):
                lifecycle.sayGoodbye(conn, .web(why, closeFrame: nil))
            case .endWebSocket(let frame, let why):
                // The lines that came before the close are answered before it.
                handleLines(conn, beforeGoodbye: true)
                lifecycle.sayGoodbye(conn, .web(why, closeFrame: frame))
            }
        }
        // Held back or going again: input is read only while requests are.
        if conn.readsHeldBack != (conn.web?.isHeldBack == true) {
            conn.readsHeldBack.toggle()
            lifecycle.updateInterest(conn)
        }
    }

    /// Sends the pictures the renderer finished to the connections waiting for them.
    func collectPictures() {
        for delivery in browserPictures.collect() {
            guard let conn = connections[delivery.token], conn.state.isActive || conn.state.pausedUntil != nil else { continue }
            perform(conn.web?.answerPicture(delivery.response, now: clock.now, outputRoom: outputRoom(conn)) ?? [], on: conn)
            // Requests that waited may have opened a WebSocket and sent lines.
            handleLines(conn)
        }
    }

    /// Once a second: 408 for slow request heads, pings for quiet WebSockets.
    func sweepWeb() {
        let headLimit = Int64(config.httpHeaderTimeoutMillis)
        let pingEvery = Int64(config.webSocketPingMillis)
        for conn in Array(connections.values) where conn.state.isOpen && !conn.state.saidGoodbye {
            switch conn.transport {
            case .lines:
                continue
            case .undecided:
                // Part of a method name, and the head's time is up: an HTTP
                // client too slow to tell (its clock runs from its first byte).
                if !conn.firstBytes.isEmpty, clock.now - conn.firstByteAt >= headLimit {
                    conn.sendWire(HTTPResponse.error(.timeout).encoded(keepAlive: false))
                    lifecycle.sayGoodbye(conn, .web("HTTP 408 header timeout", closeFrame: nil))
                }
            case .web:
                guard let session = conn.web else { continue }
                if session.isReadingHead, let started = session.headStartedAt, clock.now - started >= headLimit {
                    perform(conn.web!.timeOut(), on: conn)
                } else if session.phase == .webSocket, pingEvery > 0,
                          clock.now - conn.lastReceived >= pingEvery, clock.now - conn.lastPing >= pingEvery {
                    conn.lastPing = clock.now
                    conn.sendWire(session.ping())
                }
            }
        }
    }
}
