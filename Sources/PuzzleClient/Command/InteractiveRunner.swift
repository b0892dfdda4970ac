import PuzzleLink
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Full-screen mode: the terminal in raw mode on the alternate screen, redrawn
/// from a `Scene` at most ~30 times a second (only what changed, one write a
/// frame), keys from `KeyDecoder`, the command line in a `LineEditor`.
///
/// The terminal is restored on every way out: `run` returning (quit, Ctrl-C,
/// refused join) restores it itself; SIGINT/SIGTERM/SIGHUP and `exit` are
/// covered by `TerminalMode`. A lost connection is retried with backoff
/// (0.25 s doubling to 5 s); the rejoin's snapshot resyncs the mirror.
public final class InteractiveRunner {
    let options: PlayOptions
    let colorMode: ColorMode
    var session: ClientSession
    var connection: LineConnection?
    var queue: EpollQueue?
    var editor = LineEditor()
    var keys = KeyDecoder()
    var renderer: FrameRenderer
    /// The table's still layer, redrawn only when something in it changed.
    var tableCache = TableLayerCache()
    var size = (rows: 24, cols: 80)
    var view = Point(x: 0, y: 0)
    var zoom = TableZoom.standard
    /// Whether the view keeps the whole table fitted (until the player zooms or pans).
    var autoFit = true
    /// The room and puzzle the view was last fitted to: a new one is fitted again.
    var fittedPuzzle: (room: String, puzzle: Int)?
    var showNumbers = true
    var followHeld = true
    /// The message pane: what is worth reading, its scroll and view.
    var log = MessageLog(limit: InteractiveRunner.messageHistory)
    var dirty = true
    var lastRender: Int64 = -1_000
    var escapeDeadline: Int64?
    var nextPing: Int64 = 0
    var reconnectAt: Int64 = 0
    var reconnectDelay: Int64 = 250
    /// Connection attempts since the last time the room was joined.
    var attempts = 0
    var watchingWrite = false
    var quitting = false
    /// The piece the mouse has taken, if any.
    var pointer: PointerHold?
    /// The newest pointer point not yet sent as a drag (drags go out at most
    /// every `pointerInterval` ms, always the latest position).
    var pendingPointer: Point?
    var lastPointerDrag: Int64 = 0
    /// Dragging on the empty table pans: where the press was and the view then.
    var panAnchor: (row: Int, column: Int, view: Point)?
    var pointerMode = PointerMode.hold
    /// The window over the table (help, players, rooms, board), if open.
    var overlay: Overlay?
    /// This player's own view: piece filter, the box lid, a found piece.
    var lens = TableLens()
    /// Whether the room offers the lid (until `RoomSettings` says: jigsaw rooms).
    var lidAllowed: Bool { session.state?.settings.lid ?? false }

    static let socketToken: UInt64 = 1
    static let inputToken: UInt64 = 2
    static let resizeToken: UInt64 = 3
    static let frameInterval: Int64 = 33
    /// About 60 drags a second from the mouse.
    static let pointerInterval: Int64 = 16
    static let messageHistory = 500

    public init(options: PlayOptions, colorMode: ColorMode) {
        self.options = options
        self.colorMode = colorMode
        renderer = FrameRenderer(colorMode: colorMode)
        var notes: [String] = []
        tokenFile = ResumeTokenFile.open(for: options) { notes.append($0) }
        session = ClientSession(name: options.name, room: options.room, password: options.password, resumeToken: tokenFile?.token)
        for note in notes { log.add(OutputLine(kind: .info, text: note), me: nil, width: size.cols) }
    }

    /// Where this player's resume token is kept across runs, if it is.
    let tokenFile: ResumeTokenFile?

    var now: Int64 { MonotonicClock.nowMilliseconds }

    /// Plays until quit; returns the exit status.
    public func run() -> Int32 {
        let mode: TerminalMode
        do {
            mode = try TerminalMode.enterRaw(fd: 0, restoreOutput: ANSI.restoreSequence)
        } catch {
            report("puzzle play: cannot use the terminal: \(error)")
            return 1
        }
        var status: Int32 = 0
        do {
            try TerminalWriter(fd: 1).writeAll(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.enableMouse)
            status = try loop()
        } catch {
            status = 1
            session.fatalError = session.fatalError ?? "\(error)"
        }
        connection?.close()
        TerminalResizeMonitor.uninstall()
        mode.restore()
        if let fatal = session.fatalError { report("puzzle play: \(fatal)") }
        return status
    }

    private func report(_ text: String) {
        try? TerminalWriter(fd: 2).writeAll(Array((text + "\n").utf8))
    }

    private func loop() throws -> Int32 {
        let queue = try EpollQueue(maxEventsPerWait: 16)
        self.queue = queue
        try queue.register(.standardInput, interest: .readable, token: Self.inputToken)
        let resize = try TerminalResizeMonitor.install()
        try queue.register(FileDescriptor(rawValue: resize), interest: .readable, token: Self.resizeToken)
        readSize()
        while true {
            let t = now
            if connection == nil && t >= reconnectAt { connect() }
            pumpSession()
            if session.phase == .finished || quitting { return session.fatalError == nil ? 0 : 1 }
            // A player holding the mouse button on its piece, or typing with a
            // piece in hand, is there: its hold must not lapse.
            if pointer != nil || (!editor.text.isEmpty && session.heldPiece != nil) {
                session.keepHoldsWhilePresent(now: t)
                pumpSession()
            }
            if t >= nextPing, connection != nil {
                session.ping(now: t)
                nextPing = t + 2000
                pumpSession()
            }
            if dirty && t - lastRender >= Self.frameInterval { try draw() }

            var timeout: Int64 = 1000 - t % 1000  // the clock on the status line
            if dirty { timeout = min(timeout, max(0, lastRender + Self.frameInterval - t)) }
            if let e = escapeDeadline { timeout = min(timeout, max(0, e - t)) }
            if connection == nil { timeout = min(timeout, max(0, reconnectAt - t)) }
            if connection != nil { timeout = min(timeout, max(0, nextPing - t)) }
            if pendingPointer != nil { timeout = min(timeout, max(0, lastPointerDrag + Self.pointerInterval - t)) }
            let leaseTick = session.nextLeaseTick(after: t)
            if let leaseTick { timeout = min(timeout, max(0, leaseTick - t)) }
            let events = try queue.wait(timeoutMillis: Int32(clamping: timeout))
            var socketReady = false, inputReady = false, resized = false
            for e in events {
                switch e.token {
                case Self.socketToken: socketReady = true
                case Self.inputToken: inputReady = true
                case Self.resizeToken: resized = true
                default: break
                }
            }
            if now / 1000 != lastRender / 1000 { dirty = true }  // the elapsed time and hint run out
            if let leaseTick, now >= leaseTick { dirty = true }  // the count of a lapsing hold
            if resized && TerminalResizeMonitor.consumePending() {
                readSize()
                renderer.invalidate()
                dirty = true
            }
            if socketReady, let connection {
                let result = connection.read()
                let t = now
                for line in result.lines { session.receive(Substring(line), now: t) }
                if result.closed { lost("the server closed the connection") }
                dirty = true
            }
            if inputReady { try readKeys() }
            if let e = escapeDeadline, now >= e {
                escapeDeadline = nil
                for key in keys.flushPendingEscape() { handle(key) }
            }
            if pendingPointer != nil && now - lastPointerDrag >= Self.pointerInterval {
                sendPendingPointer()
                pumpSession()
            }
        }
    }

    // MARK: Connection

    private func connect() {
        attempts += 1
        do {
            let c = try LineConnection(host: options.host, port: options.port, timeoutMillis: 2000, maxLineLength: 1 << 16)
            try queue?.register(c.socket.descriptor, interest: .readable, token: Self.socketToken)
            connection = c
            watchingWrite = false
            session.connected(now: now)
            nextPing = now + 500
        } catch {
            scheduleReconnect("cannot connect: \(ConnectionLoss.reason(error))")
        }
        dirty = true
    }

    private func lost(_ why: String) {
        if let c = connection {
            try? queue?.deregister(c.socket.descriptor)
            c.close()
        }
        connection = nil
        session.connectionLost(why)  // tells the messages why
        lastFailure = why
        if clockStoppedAt == nil { clockStoppedAt = now }
        // A link that stayed up a while is retried at once; one that keeps
        // dropping right after the join backs off (and floods the messages less).
        if let up = upSince, now - up >= Self.stableLink { reconnectDelay = 250 }
        upSince = nil
        scheduleReconnect(why)
    }

    private var notice: String?
    /// When the link dropped (nil while joined): the status line's clock stops there.
    private var clockStoppedAt: Int64?
    /// When the current link's join succeeded.
    private var upSince: Int64?
    /// How long a link must stay up for its loss to be retried without waiting.
    static let stableLink: Int64 = 10_000
    /// The last reason a connection failed, told once however many attempts repeat it.
    private var lastFailure: String?

    private func scheduleReconnect(_ why: String) {
        reconnectAt = now + reconnectDelay
        // The banner stays short enough for a narrow view; the reason goes to the messages.
        notice = "connection lost: reconnecting, attempt \(attempts + 1) in \(ClientSession.seconds(reconnectDelay)) s"
        if why != lastFailure {
            lastFailure = why
            addMessage(OutputLine(kind: .info, text: why))
        }
        reconnectDelay = min(5000, reconnectDelay * 2)
    }

    /// Sends what the session queued and takes in what it said.
    private func pumpSession() {
        if let connection {
            for r in session.takeOutgoing() { connection.enqueue(r) }
            do { try connection.flush() } catch { lost(ConnectionLoss.reason(error)) }
            if let c = self.connection, c.hasPendingOutput != watchingWrite {
                watchingWrite.toggle()
                try? queue?.modify(c.socket.descriptor, interest: watchingWrite ? .both : .readable, token: Self.socketToken)
            }
        }
        if session.phase == .joined || session.phase == .choosingRoom {
            notice = nil; attempts = 0; lastFailure = nil; clockStoppedAt = nil
            if upSince == nil { upSince = now }
        }
        do { try tokenFile?.keep(session.resumeToken) } catch {
            addMessage(OutputLine(kind: .info, text: "cannot keep the resume token in \(tokenFile?.path ?? ""): \(error)"))
        }
        if let rooms = session.takeRoomChoices() {
            overlay = Overlay(title: "pick a room: /join NAME [PASSWORD]", lines: rooms)
            overlay?.closesOnJoin = true
            dirty = true
        }
        if session.phase == .joined, overlay?.closesOnJoin == true {
            overlay = nil
            dirty = true
        }
        for line in session.takeOutput() {
            dirty = true
            if overlay?.collecting == true {
                // A listing the player asked for fills the window, not the messages.
                switch line.about {
                case .listing(.entry(let entry))?:
                    overlay?.lines.append(entry)
                    continue
                case .listing(.end)?:
                    overlay?.collecting = false
                    continue
                default: break
                }
                if line.kind == .error { overlay = nil }
            }
            addMessage(line)
        }
    }

    // MARK: Keys

    private func readKeys() throws {
        var bytes: [UInt8] = []
        let result = try FileDescriptor.standardInput.read(appendingTo: &bytes, maxBytes: 4096)
        if case .processed(0) = result {
            quitting = true  // the terminal went away
            return
        }
        for key in keys.feed(bytes) { handle(key) }
        escapeDeadline = keys.hasPendingEscape ? now + 40 : nil
        dirty = true
    }

    func handle(_ key: Key) {
        let t = now
        let context = KeyMap.Context(holding: session.heldPiece != nil, promptEmpty: editor.text.isEmpty, overlayOpen: overlay != nil)
        switch KeyMap.action(for: key, in: context) {
        case .edit:
            if case .submitted(let line) = editor.handle(key) { submit(line) }
        case .quit:
            quitting = true
        case .moveHeld(let dx, let dy):
            followHeld = true
            session.dragHeld(dx: dx, dy: dy, now: t)
        case .pan(let dx, let dy):
            // A quarter of the view a step.
            pan(dx: dx * max(1, layout.viewUnits.x / 4), dy: dy * max(1, layout.viewUnits.y / 4))
        case .drop: session.perform(.drop, now: t)
        case .rotate: session.perform(.rotate, now: t)
        case .release: session.perform(.release, now: t)
        case .clearPrompt: editor.setText("")
        case .grabNext:
            followHeld = true
            session.grabNextFree(now: t)
        case .scrollMessages(let back):
            let page = max(1, layout.messageLines - 1)
            scrollMessages(by: back ? page : -page)
        case .follow: followHeld = true
        case .zoom(let step): setZoom(step)
        case .toggleNumbers: showNumbers.toggle()
        case .toggleChatOnly:
            log.setChatOnly(nil)
            dirty = true
        case .cycleLid: changeLens(.lid(.cycle))
        case .closeOverlay:
            overlay = nil
            dirty = true
        case .pageOverlay(let back):
            overlay?.page(back: back, in: layout)
            dirty = true
        case .mouse(let event): handleMouse(event)
        }
        pumpSession()
    }

    private func submit(_ line: String) {
        let command: ClientCommand?
        do { command = try ClientCommand.parseTyped(line) } catch {
            addMessage(OutputLine(kind: .error, text: "error: \(error.message)"))
            return
        }
        switch command {
        case .pan(let dx, let dy)?: pan(dx: dx, dy: dy)
        case .panHome?: followHeld = true
        case .zoom(let step)?: setZoom(step)
        case .numbers(let on)?:
            showNumbers = on ?? !showNumbers
            addMessage(OutputLine(kind: .info, text: "piece numbers \(showNumbers ? "on" : "off"): piece N belongs in cell (N div cols, N mod cols)"))
        case .mouse(let mode)?: setPointerMode(mode)
        case .chatOnly(let on)?: log.setChatOnly(on)
        case .lens(let change)?: changeLens(change)
        case .quit? where connection == nil: quitting = true
        case .help?:
            overlay = Overlay(title: "help", lines: ClientCommand.slashHelpLines)
        case .who?:
            overlay = Overlay(title: "players", collecting: true)
            session.perform(.who, now: now)
        case .rooms?:
            overlay = Overlay(title: "rooms (/join NAME to go there)", collecting: true)
            session.perform(.rooms, now: now)
        case .board?:
            if let st = session.state {
                overlay = Overlay(title: "board", lines: ClientSession.boardLines(st, names: { self.session.displayName($0) }))
            } else {
                session.perform(.board, now: now)
            }
        case let c?: session.perform(c, now: now)
        case nil: break
        }
    }

    // MARK: Mouse

    func handleMouse(_ event: MouseEvent) {
        let t = now
        updateView()
        let point = layout.tablePoint(row: event.row, column: event.column, view: view)
        switch (event.button, event.action) {
        case (.left, .press) where pointer == nil && overViewAid(event):
            break  // the lid or the map: never a grab of a piece the player cannot see
        case (.left, .press):
            if pointerMode == .click, let hold = pointer {
                // Click mode: the second click puts the piece down.
                finishPointer(hold, at: point, now: t)
            } else if let point, let hold = session.pointerPress(at: point, now: t, lens: lens) {
                pointer = hold
                followHeld = false
            } else if point != nil {
                panAnchor = (event.row, event.column, view)
            }
        case (.left, .motion), (.none, .motion):
            if pointer != nil, let point {
                pendingPointer = point
                if t - lastPointerDrag >= Self.pointerInterval { sendPendingPointer() }
            } else if let anchor = panAnchor, event.button == .left {
                followHeld = false
                autoFit = false
                // The table moves with the pointer: screen cells back to units at this zoom.
                view = Point(x: anchor.view.x - zoom.units(inPixels: event.column - anchor.column),
                             y: anchor.view.y - zoom.units(inPixels: 2 * (event.row - anchor.row)))
                dirty = true
            }
        case (.left, .release):
            panAnchor = nil
            if pointerMode == .hold, let hold = pointer { finishPointer(hold, at: point, now: t) }
        case (.right, .press):
            session.pointerTurn(at: point, now: t)
        case (.wheelUp, _), (.wheelDown, _):
            let step = event.button == .wheelUp ? -2 : 2
            if layout.isMessageRow(event.row) {
                scrollMessages(by: -step)
            } else if let st = session.state, lidAllowed, lens.lidOpen,
                      LidWindow.contains(row: event.row, column: event.column, layout: layout, step: lens.lid, rows: st.spec.rows, cols: st.spec.cols,
                                         avoiding: LidWindow.heldCell(st, me: session.myID, layout: layout, view: view)) {
                // Over the lid the wheel sizes it (never closing it).
                lens.lid = event.button == .wheelUp ? min(TableLens.lidSteps, lens.lid + 1) : max(1, lens.lid - 1)
                dirty = true
            } else if let st = session.state, layout.tablePoint(row: event.row, column: event.column, view: view) != nil {
                // Over the table the wheel zooms, keeping the point under the pointer in place.
                let next = layout.nextZoom(in: event.button == .wheelUp, table: st.geometry)
                view = layout.zoom(to: next, keeping: event.row, event.column, view: view, table: st.geometry)
                zoom = next
                autoFit = false
                followHeld = false
                dirty = true
            }
        default:
            break
        }
    }

    /// Whether a press falls on the lid window or the overview map, which
    /// cover the table there; a press on the map centres the view on the
    /// table point it shows.
    private func overViewAid(_ event: MouseEvent) -> Bool {
        guard let st = session.state else { return false }
        let held = LidWindow.heldCell(st, me: session.myID, layout: layout, view: view)
        if lidAllowed, lens.lidOpen, session.mirror?.picture != nil,
           LidWindow.contains(row: event.row, column: event.column, layout: layout, step: lens.lid, rows: st.spec.rows, cols: st.spec.cols, avoiding: held) {
            return true
        }
        if !(lidAllowed && lens.lid >= TableLens.lidSteps),
           let p = OverviewMap.tablePoint(row: event.row, column: event.column, layout: layout, table: st.geometry, avoiding: held) {
            let shown = layout.viewUnits
            view = layout.clamp(Point(x: p.x - shown.x / 2, y: p.y - shown.y / 2), table: st.geometry)
            autoFit = false
            followHeld = false
            dirty = true
            return true
        }
        return false
    }

    /// Applies a change to the player's own view; a found piece out of sight is brought into view.
    private func changeLens(_ change: LensCommand) {
        let said = lens.apply(change, lidAllowed: lidAllowed, in: session.state)
        addMessage(OutputLine(kind: said.isError ? .error : .info, text: said.isError ? "error: \(said.text)" : said.text))
        if case .find(let piece?) = change, lens.found == piece, let st = session.state {
            updateView()
            let at = st.position(of: piece)
            if layout.screenCell(of: Point(x: at.x + st.geometry.unit / 2, y: at.y + st.geometry.unit / 2), view: view) == nil {
                // Out of sight: the view centred on it.
                let shown = layout.viewUnits
                view = layout.clamp(Point(x: at.x + st.geometry.unit / 2 - shown.x / 2, y: at.y + st.geometry.unit / 2 - shown.y / 2), table: st.geometry)
                autoFit = false
                followHeld = false
            }
        }
        dirty = true
    }

    /// Sends the newest pointer position as a drag (the throttle allows it now).
    private func sendPendingPointer() {
        guard let hold = pointer, let point = pendingPointer else { return }
        pendingPointer = nil
        lastPointerDrag = now
        session.pointerDrag(hold, to: point, now: now)
        dirty = true
    }

    /// Drops the pointer's piece where the pointer is (after its last drag).
    private func finishPointer(_ hold: PointerHold, at point: Point?, now t: Int64) {
        if let point { pendingPointer = point }
        sendPendingPointer()
        session.pointerRelease(hold, now: t)
        pointer = nil
    }

    private func setPointerMode(_ mode: PointerMode) {
        pointerMode = mode
        if let hold = pointer { finishPointer(hold, at: nil, now: now) }
        let bytes = mode == .click ? ANSI.enableMouseMotion : ANSI.disableMouseMotion
        try? TerminalWriter(fd: 1).writeAll(bytes)
        addMessage(OutputLine(kind: .info, text: mode == .click ? "mouse: click a piece to pick it up, click again to put it down"
                                                                : "mouse: press on a piece, drag, release to drop"))
        dirty = true
    }

    /// Offers a line to the message pane (`MessageLog` keeps what is worth reading).
    private func addMessage(_ line: OutputLine) {
        log.add(line, me: session.myID, width: size.cols)
        dirty = true
    }

    /// Scrolls the message pane back (positive) or forward, within its history.
    private func scrollMessages(by lines: Int) {
        log.scroll(by: lines, width: size.cols, shown: layout.messageLines)
        dirty = true
    }

    private func pan(dx: Int, dy: Int) {
        followHeld = false
        autoFit = false
        view = Point(x: view.x + dx, y: view.y + dy)
        dirty = true
    }

    // MARK: Drawing

    var layout: SceneLayout { SceneLayout(width: size.cols, height: size.rows, zoom: zoom) }

    /// Zooms one level in or out about the held piece (or the view's middle),
    /// or fits the whole table again.
    private func setZoom(_ step: ZoomStep) {
        dirty = true
        guard let st = session.state else { return }
        switch step {
        case .fit:
            autoFit = true
            fit(st)
        case .zoomIn, .zoomOut:
            let next = layout.nextZoom(in: step == .zoomIn, table: st.geometry)
            if step == .zoomOut && next == layout.fit(table: st.geometry).zoom {
                // Zoomed out as far as it goes: the whole table, kept fitted (as /zoom fit).
                autoFit = true
                fit(st)
                return
            }
            let held = session.heldPiece.flatMap(session.shownPosition(of:))
            let anchor = layout.zoomAnchor(held: held, view: view, table: st.geometry)
            view = layout.zoom(to: next, keeping: anchor.row, anchor.column, view: view, table: st.geometry)
            zoom = next
            autoFit = false
        }
    }

    /// Shows the whole table: the largest zoom at which it fits, centred.
    private func fit(_ st: RoomState) {
        let fitted = layout.fit(table: st.geometry)
        zoom = fitted.zoom
        view = fitted.view
        fittedPuzzle = (session.room ?? "", st.puzzleIndex)
    }

    private func readSize() {
        if let s = TerminalMode.windowSize(1) ?? TerminalMode.windowSize(0) { size = s }
    }

    /// Fits, follows and clamps the view for the room as it is now: before
    /// every frame, and before a mouse event is mapped to the table, so a click
    /// lands where the player saw it even before the first frame of a new room.
    private func updateView() {
        let st = session.state
        if let st {
            // A room or puzzle seen for the first time is shown whole; so is a
            // resized terminal while the player has not zoomed or panned.
            if fittedPuzzle?.room != session.room || fittedPuzzle?.puzzle != st.puzzleIndex {
                autoFit = true
                fit(st)
            } else if autoFit {
                fit(st)
            }
            if followHeld, let point = session.heldPiece.flatMap(session.shownPosition(of:)) {
                view = layout.follow(point, view: view, table: st.geometry)
            }
            view = layout.clamp(view, table: st.geometry)
        }
    }

    private func draw() throws {
        let t = now
        let st = session.state
        updateView()
        let hintUntil = session.myID.flatMap { st?.players[$0]?.hintUntil } ?? 0
        var scene = Scene(width: size.cols, height: size.rows, colorMode: colorMode, room: session.room ?? "(pick a room)", state: st,
                          picture: session.mirror?.picture, myID: session.myID, names: session.names, view: view, zoom: zoom,
                          showNumbers: showNumbers, now: t,
                          rttMillis: session.rttMillis, connectionNotice: connection == nil ? notice ?? "connecting..." : nil,
                          clockStoppedAt: clockStoppedAt,
                          messages: log.shownLines, messageScroll: log.scroll, solvedBanner: session.solvedBanner,
                          showHint: hintUntil > t, editor: editor, overlay: overlay, lens: lens, lidAllowed: lidAllowed)
        scene.choosingRoom = session.phase == .choosingRoom
        scene.chatOnly = log.chatOnly
        let bytes = renderer.render(SceneRenderer.render(scene, cache: &tableCache))
        if !bytes.isEmpty { try TerminalWriter(fd: 1).writeAll(bytes) }
        lastRender = t
        dirty = false
    }
}
