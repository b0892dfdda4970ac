import PuzzleLink
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Full-screen mode on the local terminal: the driver of a `PlayApp`. The terminal in raw
/// mode on the alternate screen, redrawn from the app's `Scene` at most ~30 times a second
/// (only what changed, one write a frame); bytes from the keyboard decoded into keys
/// (`KeyDecoder`); the connection the app asks for made and pumped (`ServerLink`); the resume
/// token kept in its file. Everything the game decides is the app's.
///
/// The terminal is restored on every way out: `run` returning (quit, Ctrl-C,
/// refused join) restores it itself; SIGINT/SIGTERM/SIGHUP and `exit` are
/// covered by `TerminalMode`. A lost connection is retried when the app says
/// (backoff 0.25 s doubling to 5 s); the rejoin's snapshot resyncs the mirror.
public final class InteractiveRunner {
    let options: PlayOptions
    var app: PlayApp
    var link: ServerLink?
    var queue: EpollQueue?
    var keys = KeyDecoder()
    var renderer: FrameRenderer
    /// The table's still layer, redrawn only when something in it changed.
    var tableCache = TableLayerCache()
    var lastRender: Int64 = -1_000
    var escapeDeadline: Int64?
    /// Whether the terminal was asked for motion reports without a button (click mode).
    var mouseMotion = false
    /// Where this player's resume token is kept across runs, if it is.
    let tokenFile: ResumeTokenFile?
    /// The session's pictures kept between runs.
    let pictureDisk: PictureDiskCache?

    static let socketToken: UInt64 = 1
    static let inputToken: UInt64 = 2
    static let resizeToken: UInt64 = 3
    static let frameInterval: Int64 = 33

    public init(options: PlayOptions, colorMode: ColorMode) {
        self.options = options
        renderer = FrameRenderer(colorMode: colorMode)
        var notes: [String] = []
        tokenFile = ResumeTokenFile.open(for: options) { notes.append($0) }
        var session = ClientSession(name: options.name, room: options.room, password: options.password, resumeToken: tokenFile?.token,
                                    watch: options.watch, lastRoom: tokenFile?.room)
        pictureDisk = options.cacheDirectory.map(PictureDiskCache.init)
        pictureDisk?.load(into: &session.pictures)
        app = PlayApp(session: session, colorMode: colorMode, notes: notes)
    }

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
        var failure: String?
        do {
            try TerminalWriter(fd: 1).writeAll(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.enableMouse)
            status = try loop()
        } catch {
            status = 1
            failure = "\(error)"
        }
        link?.close()
        TerminalResizeMonitor.uninstall()
        mode.restore()
        if let fatal = app.session.fatalError ?? failure { report("puzzle play: \(fatal)") }
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
            if link == nil && app.wantsConnection(now: t) { connect(queue) }
            step(.tick)
            if app.isFinished { return app.exitStatus }
            if app.needsDraw && t - lastRender >= Self.frameInterval { try draw() }

            var timeout = app.nextWake(after: t) - t
            if app.needsDraw { timeout = min(timeout, max(0, lastRender + Self.frameInterval - t)) }
            if let e = escapeDeadline { timeout = min(timeout, max(0, e - t)) }
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
            if resized && TerminalResizeMonitor.consumePending() {
                readSize()
                renderer.invalidate()
            }
            if socketReady, let link {
                let result = link.read()
                let t = now
                app.handle(.serverLines(result.lines), now: t)
                carryOut()
                if result.closed { lost("the server closed the connection") }
            }
            if inputReady { try readKeys() }
            if let e = escapeDeadline, now >= e {
                escapeDeadline = nil
                for key in keys.flushPendingEscape() { step(.key(key)) }
            }
        }
    }

    /// Gives the app one input, then carries out what it asks: requests sent, the resume
    /// token kept, the terminal's mouse reports switched.
    private func step(_ input: PlayApp.Input) {
        app.handle(input, now: now)
        carryOut()
    }

    private func carryOut() {
        // Files are read here, at the edge; the app only names them.
        for file in app.takePictureFiles() {
            app.handle(.pictureFileRead(file, PictureFileReader.read(file.path)), now: now)
        }
        if let link {
            do { try link.send(app.takeRequests()) } catch { lost(ConnectionLoss.reason(error)) }
        }
        tokenFile?.keep(app.session.resumeToken, room: app.session.lastRoom) { app.handle(.note($0), now: now) }
        pictureDisk?.keep(app.session.pictures)
        if app.wantsMouseMotion != mouseMotion {
            mouseMotion.toggle()
            try? TerminalWriter(fd: 1).writeAll(mouseMotion ? ANSI.enableMouseMotion : ANSI.disableMouseMotion)
        }
    }

    // MARK: Connection

    private func connect(_ queue: EpollQueue) {
        do {
            link = try ServerLink(options: options, timeoutMillis: 2000, queue: queue, token: Self.socketToken)
            step(.connected)
        } catch {
            step(.connectFailed(ConnectionLoss.reason(error)))
        }
    }

    private func lost(_ why: String) {
        link?.close()
        link = nil
        step(.connectionLost(why))
    }

    // MARK: Terminal

    private func readKeys() throws {
        var bytes: [UInt8] = []
        let result = try FileDescriptor.standardInput.read(appendingTo: &bytes, maxBytes: 4096)
        if case .processed(0) = result {
            app.quitting = true  // the terminal went away
            return
        }
        for key in keys.feed(bytes) { step(.key(key)) }
        escapeDeadline = keys.hasPendingEscape ? now + 40 : nil
    }

    private func readSize() {
        if let s = TerminalMode.windowSize(1) ?? TerminalMode.windowSize(0) { step(.resize(rows: s.rows, columns: s.cols)) }
    }

    private func draw() throws {
        let t = now
        let scene = app.scene(now: t)
        let bytes = renderer.render(SceneRenderer.render(scene, cache: &tableCache))
        if !bytes.isEmpty { try TerminalWriter(fd: 1).writeAll(bytes) }
        lastRender = t
    }
}
