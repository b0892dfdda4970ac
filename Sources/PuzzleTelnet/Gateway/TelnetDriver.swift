import PuzzleClient
import PuzzleLink
import PuzzleSystem

/// One telnet player, on a thread of its own: the telnet counterpart of the terminal
/// client's `InteractiveRunner`. The client's bytes go through `TelnetSession` (negotiation
/// taken out) into a `KeyDecoder`; the name prompt (`TelnetLogin`) comes first, then the
/// same `PlayApp` the terminal client runs, connected to the rooms by `connect` (the line
/// protocol over a socket: the gateway is a client of the server); frames are drawn here,
/// off the game loop, at most ~30 a second and only once the last one is out.
///
/// The session ends when the client goes (the player stays in the room for the server's
/// stay and comes back with its come-back code), quits, idles past the timeout, stops
/// reading, types too many wrong codes, or the gateway stops (`shutdown` of its socket).
final class TelnetDriver {
    let client: Socket
    let peer: SocketAddress
    let settings: TelnetSettings
    let connect: TelnetGateway.Connect
    let codes: ComeBackCodes
    /// The gateway's drawing budget: how far apart this session's frames are.
    let budget: DrawBudget
    /// This session's number in the budget.
    let id: UInt64
    let log: @Sendable (String) -> Void
    /// Milliseconds between frames, as the budget last said.
    var frameInterval = DrawBudget.minimumInterval

    var telnet: TelnetSession
    var keys = KeyDecoder()
    var output: TelnetOutput
    var login: TelnetLogin?
    var app: PlayApp?
    var link: ServerLink?
    /// When the server's socket is watched again (nil: it is watched). Read
    /// in batches, at most every `serverReadInterval`: where many drag, a
    /// batch's drags a later drag of their piece overrides are skipped
    /// (`SupersededDrags`), and frames come only every 33 ms anyway (issue
    /// 30: twenty sessions mirroring every drag of a hundred bots one by one
    /// took a core of the server's two).
    var serverReadDue: Int64?
    static let serverReadInterval: Int64 = 15
    var queue: EpollQueue?
    var renderer = FrameRenderer(colorMode: .palette16)
    var tableCache = TableLayerCache()
    var lastRender: Int64 = -1_000
    var escapeDeadline: Int64?
    var mouseMotion = false
    var screenStarted = false
    var lastInput: Int64
    var wrongCodes = 0
    /// The code shown to this player, once it has a token.
    var shownCode: String?
    var keptRoom: String?
    /// Why the session ended, for the log and the client's last line.
    var endReason: String?
    var watchingWrite = false
    /// What this session's frames cost to make (logged at its end).
    var frameTimes = FrameTimes()

    static let clientToken: UInt64 = 1
    static let serverToken: UInt64 = 2

    init(client: Socket, peer: SocketAddress, settings: TelnetSettings, connect: @escaping TelnetGateway.Connect,
         codes: ComeBackCodes, budget: DrawBudget, id: UInt64, log: @escaping @Sendable (String) -> Void) {
        self.budget = budget
        self.id = id
        self.client = client
        self.peer = peer
        self.settings = settings
        self.connect = connect
        self.codes = codes
        self.log = log
        let t = MonotonicClock.nowMilliseconds
        telnet = TelnetSession(now: t)
        output = TelnetOutput(hardLimit: settings.outputLimit, stallMillis: settings.stallMillis)
        lastInput = t
    }

    var now: Int64 { MonotonicClock.nowMilliseconds }

    /// Plays until the session ends (the socket is the caller's to close).
    func run() {
        do {
            try loop()
        } catch {
            endReason = endReason ?? "\(error)"
        }
        link?.close()
        link = nil
        if endReason != nil || screenStarted {
            // Best effort: a client that stopped reading does not get it.
            var bye: [UInt8] = screenStarted ? ANSI.restoreSequence : []
            if let why = endReason { bye += Array("\r\npuzzle-room: \(why)\r\n".utf8) }
            output.append(data: bye, now: now)
            try? output.flush(to: client, now: now)
        }
        queue?.close()
        log("telnet \(peer) ended: \(endReason ?? "left"); \(frameTimes.summary)")
    }

    private func loop() throws {
        let queue = try EpollQueue(maxEventsPerWait: 8)
        self.queue = queue
        try queue.register(client.descriptor, interest: .readable, token: Self.clientToken)
        output.append(commands: TelnetSession.opening, now: now)
        try flushClient()
        while endReason == nil {
            let t = now
            telnet.tick(now: t)
            if settings.idleTimeoutSeconds > 0, t - lastInput >= Int64(settings.idleTimeoutSeconds) * 1000 {
                endReason = "no key for \(settings.idleTimeoutSeconds) s: closed"
                break
            }
            if output.isStuck(now: t) {
                endReason = "the terminal stopped reading"
                break
            }
            if !screenStarted && telnet.isSettled(now: t) { startScreen() }
            if let due = serverReadDue, t >= due {
                serverReadDue = nil
                do { try link?.watchReading(true) } catch { lost(ConnectionLoss.reason(error)) }
            }
            if app != nil { stepApp(t) }
            if endReason != nil { break }
            try flushClient()
            // A new frame only once the last one is out: a slow terminal sees fewer frames.
            if output.pending == 0 {
                try draw(t)
                try flushClient()
            }
            let events = try queue.wait(timeoutMillis: timeout(t))
            for e in events {
                switch e.token {
                case Self.clientToken:
                    if e.readable || e.hangup || e.error { try readClient() }
                    if e.writable { try flushClient() }
                case Self.serverToken:
                    readServer()
                default: break
                }
            }
            if let e = escapeDeadline, now >= e {
                escapeDeadline = nil
                for key in keys.flushPendingEscape() { handle(key) }
            }
        }
    }

    /// How long to wait for the next event: the app's next wake, the next frame, a held
    /// ESC, the telnet session's deadlines, the idle timeout, a stalled write.
    private func timeout(_ t: Int64) -> Int32 {
        var next = t + 1000
        if let app {
            next = min(next, app.nextWake(after: t))
            if app.needsDraw { next = min(next, max(t, lastRender + frameInterval)) }
        } else if screenStarted, login?.needsDraw == true {
            next = min(next, max(t, lastRender + frameInterval))
        }
        if let d = telnet.nextDeadline(now: t) { next = min(next, d) }
        if let e = escapeDeadline { next = min(next, e) }
        if let r = serverReadDue { next = min(next, r) }
        if let s = output.stallDeadline { next = min(next, s) }
        if settings.idleTimeoutSeconds > 0 { next = min(next, lastInput + Int64(settings.idleTimeoutSeconds) * 1000) }
        return Int32(clamping: max(0, next - t))
    }

    // MARK: The client

    private func startScreen() {
        screenStarted = true
        renderer = FrameRenderer(colorMode: telnet.colorMode)
        output.append(data: ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.enableMouse, now: now)
        if login == nil && app == nil { login = TelnetLogin() }
        if let hint = pendingHint { login?.hint = hint }
    }

    /// A line-mode hint that came before the screen did.
    var pendingHint: String?

    private func readClient() throws {
        var bytes: [UInt8] = []
        let result = try client.receive(appendingTo: &bytes, maxBytes: 4096)
        guard case .processed(let n) = result else { return }
        if n == 0 {
            endReason = "the client closed the connection"
            return
        }
        let t = now
        let received = telnet.receive(bytes, now: t)
        if !received.replies.isEmpty { output.append(commands: received.replies, now: t) }
        for change in received.changes { apply(change) }
        if !received.input.isEmpty {
            lastInput = t
            for key in keys.feed(received.input) { handle(key) }
            escapeDeadline = keys.hasPendingEscape ? now + 40 : nil
        }
    }

    private func apply(_ change: TelnetSession.Change) {
        switch change {
        case .resized(let rows, let columns):
            if app != nil { step(.resize(rows: rows, columns: columns)) }
            login?.invalidate()
            renderer.invalidate()
        case .terminalType(_, let mode):
            // The colours are chosen once, with the screen; a type told later is too late.
            if !screenStarted { renderer.colorMode = mode }
        case .lineMode(let hint):
            let text = hint.replacingHostAndPort(with: localAddress)
            if app != nil { step(.note(text)) } else if login != nil { login?.hint = text } else { pendingHint = text }
        case .interrupt:
            handle(.interrupt)
        }
    }

    private var localAddress: String {
        guard let a = try? client.localAddress() else { return "HOST PORT" }
        return "\(a.host) \(a.port)"
    }

    private func handle(_ key: Key) {
        if app != nil {
            step(.key(key))
            return
        }
        guard screenStarted, var prompt = login else { return }
        let outcome = prompt.handle(key)
        login = prompt
        switch outcome {
        case .quit?: endReason = "bye"
        case .name(let name)?: startGame(ClientSession(name: name, room: nil))
        case .code(let typed)?:
            if let entry = codes.entry(for: typed) {
                // Shown again once back in: the new session's messages start empty, and a
                // link may drop twice.
                shownCode = nil
                startGame(ClientSession(name: entry.name, room: nil, resumeToken: entry.token, lastRoom: entry.room))
            } else {
                wrongCodes += 1
                if wrongCodes >= settings.maxWrongCodes {
                    endReason = "\(wrongCodes) unknown come-back codes"
                } else {
                    login?.problem = "no player has the come-back code \(typed)"
                }
            }
        case nil: break
        }
    }

    private func flushClient() throws {
        try output.flush(to: client, now: now)
        let want = output.pending > 0
        if want != watchingWrite, let queue {
            try queue.modify(client.descriptor, interest: want ? .both : .readable, token: Self.clientToken)
            watchingWrite = want
        }
    }

    private func draw(_ t: Int64) throws {
        guard screenStarted, t - lastRender >= frameInterval else { return }
        let started = ThreadCPUClock.nowNanoseconds
        let frame: Frame
        // In place: a copy of the app would copy its session and mirror on every write.
        if app != nil {
            guard app!.needsDraw else { return }
            frame = SceneRenderer.render(app!.scene(now: t), cache: &tableCache)
        } else if login != nil {
            guard login!.needsDraw else { return }
            frame = login!.frame(rows: telnet.size.rows, columns: telnet.size.columns)
        } else {
            return
        }
        let bytes = renderer.render(frame)
        if !bytes.isEmpty { output.append(data: bytes, now: t) }
        if app != nil {
            let cost = Int64((ThreadCPUClock.nowNanoseconds - started) / 1000)
            frameTimes.add(micros: cost, bytes: bytes.count)
            budget.spent(cost, by: id)
            frameInterval = budget.interval
        }
        lastRender = t
    }

    // MARK: The game

    /// Sequenced events a second past which a session follows its room by snapshots.
    static let floodLimit = 1000
    /// Milliseconds between two snapshots of a flooded room.
    static let floodSnapshotEvery: Int64 = 2000

    private func startGame(_ session: ClientSession) {
        var session = session
        // Frames are 33 ms apart at best: the room's drags need come no oftener.
        session.dragPace = Int(DrawBudget.minimumInterval)
        // All sessions share the server's cores with the rooms: a room of bots
        // is followed by snapshots, not event by event (`EventFlood`).
        session.eventFlood = EventFlood(limit: Self.floodLimit, snapshotEvery: Self.floodSnapshotEvery)
        // The line-mode hint stays in sight: the first of the messages.
        let notes = [login?.hint].compactMap { $0 }
        login = nil
        var a = PlayApp(session: session, colorMode: renderer.colorMode, notes: notes)
        a.handle(.resize(rows: telnet.size.rows, columns: telnet.size.columns), now: now)
        app = a
        tableCache = TableLayerCache()
        renderer.invalidate()
        log("telnet \(peer) plays as \(session.name)")
    }

    /// Back to the name prompt (the server refused the name or the join), saying why.
    private func backToLogin(_ why: String) {
        link?.close()
        link = nil
        app = nil
        shownCode = nil
        keptRoom = nil
        if mouseMotion {
            mouseMotion = false
            output.append(data: ANSI.disableMouseMotion, now: now)
        }
        login = TelnetLogin(problem: why)
        renderer.invalidate()
    }

    private func stepApp(_ t: Int64) {
        guard app != nil else { return }
        if link == nil && app!.wantsConnection(now: t) { connectToRooms() }
        step(.tick)
        guard app?.isFinished == true else { return }
        if let refused = app!.session.fatalError, !app!.quitting {
            backToLogin(refused)
        } else {
            endReason = "bye"
        }
    }

    private func step(_ input: PlayApp.Input) {
        guard app != nil else { return }
        app!.handle(input, now: now)
        carryOut()
    }

    private func carryOut() {
        guard app != nil else { return }
        // Telnet players have no files here: a picture named for upload is refused.
        for file in app!.takePictureFiles() {
            app!.handle(.pictureFileRead(file, .failure(PictureFileError("uploads are not offered over telnet"))), now: now)
        }
        if let link {
            do { try link.send(app!.takeRequests()) } catch { lost(ConnectionLoss.reason(error)) }
        }
        keepCode()
        if app != nil, app!.wantsMouseMotion != mouseMotion {
            mouseMotion.toggle()
            output.append(data: mouseMotion ? ANSI.enableMouseMotion : ANSI.disableMouseMotion, now: now)
        }
    }

    /// Once the server gave this player a token: its come-back code, shown once, its room kept.
    private func keepCode() {
        guard let token = app?.session.resumeToken, let name = app?.session.name else { return }
        let room = app!.session.lastRoom ?? app!.session.room
        guard shownCode == nil || room != keptRoom else { return }
        keptRoom = room
        let code = codes.code(name: name, token: token, room: room)
        if shownCode == nil || shownCode != code {
            shownCode = code
            app!.handle(.note("your come-back code is \(code): if the link drops, telnet in again and type it as your name"), now: now)
        }
    }

    private func connectToRooms() {
        guard let queue else { return }
        do {
            let socket = try connect(peer.host)
            let connection = LineConnection(socket: socket, maxLineLength: 1 << 16)
            do { link = try ServerLink(connection: connection, queue: queue, token: Self.serverToken) } catch {
                connection.close()
                throw error
            }
            step(.connected)
        } catch {
            step(.connectFailed(ConnectionLoss.reason(error)))
        }
    }

    private func readServer() {
        guard let link else { return }
        let result = link.read()
        let t = now
        app?.handle(.serverLines(result.lines), now: t)
        carryOut()
        if result.closed { return lost("the server closed the connection") }
        guard let link = self.link else { return }
        do { try link.watchReading(false) } catch { return lost(ConnectionLoss.reason(error)) }
        serverReadDue = t + Self.serverReadInterval
    }

    private func lost(_ why: String) {
        link?.close()
        link = nil
        serverReadDue = nil
        step(.connectionLost(why))
    }
}

extension String {
    /// The hint's `HOST PORT` filled in with where the client reached the gateway.
    func replacingHostAndPort(with address: String) -> String {
        guard let r = range(of: "HOST PORT") else { return self }
        return replacingCharacters(in: r, with: address)
    }
}
