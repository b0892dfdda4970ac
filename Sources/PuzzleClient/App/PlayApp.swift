import PuzzleCore
import PuzzleProtocol

/// The full-screen game as a pure value: input events in (keys and mouse, a resize, server
/// lines, clock ticks, the link going up or down), requests to send and a `Scene` to draw out.
///
/// It owns the session and the player's view state: the table's viewport, the mouse's
/// gesture, the window over the table, the lens, the message log and the link's status. It
/// never touches a socket, a terminal or a clock: `now` (milliseconds of any monotonic clock)
/// is passed in, and a driver (`InteractiveRunner` for the local terminal) moves the bytes,
/// so the same app can run behind any byte stream.
public struct PlayApp: Sendable {
    /// What the app takes in.
    public enum Input: Sendable {
        /// A key or mouse event from the terminal.
        case key(Key)
        /// The screen's new size.
        case resize(rows: Int, columns: Int)
        /// One line from the server, without its terminator.
        case serverLine(Substring)
        /// Lines read from the server together, in order: a drag a later drag
        /// of its piece overrides is skipped (`SupersededDrags`).
        case serverLines([String])
        /// A connection the app asked for (`wantsConnection`) is up.
        case connected
        /// A connection the app asked for could not be made, and why.
        case connectFailed(String)
        /// The connection went down, and why.
        case connectionLost(String)
        /// Time passed: holds kept, pings, drags and the clock on the status line.
        case tick
        /// A note for the messages from the driver (a resume token that could not be kept).
        case note(String)
        /// A picture file the app asked for (`takePictureFiles`), as the driver read it.
        case pictureFileRead(PictureFile, Result<[UInt8], PictureFileError>)
    }

    /// The connection's pure state: the mirrored room, requests in flight.
    public internal(set) var session: ClientSession
    /// How colours are drawn on the player's terminal.
    public let colorMode: ColorMode
    /// The command line.
    public internal(set) var editor = LineEditor()
    /// What part of the table is seen, and how large.
    public internal(set) var viewport = TableViewport()
    /// The window over the table (help, players, rooms, board), if open.
    public internal(set) var overlay: Overlay?
    /// This player's own view: piece filter, the box lid, a found piece.
    public internal(set) var lens = TableLens()
    /// A solved puzzle played back over the table (`/replay`), if one is playing.
    public internal(set) var replay: ReplayView?
    /// The message pane: what is worth reading, its scroll and view.
    public internal(set) var log = MessageLog(limit: PlayApp.messageHistory)
    var pointer = PointerGesture()
    var presence = PlayerPresence()
    var link = LinkStatus()
    /// Whether something shown changed since the last `scene`.
    public internal(set) var needsDraw = true
    /// When the last scene was taken.
    var lastDrawn: Int64 = -1_000
    /// Whether the player asked to leave (or the terminal went away).
    public internal(set) var quitting = false
    var outbox: [Request] = []

    static let messageHistory = 500

    /// `notes`: lines for the messages from before the start (where the resume token is kept).
    public init(session: ClientSession, colorMode: ColorMode, notes: [String] = []) {
        self.session = session
        // The message log never shows drags (`MessageLog.keeps`): none are written.
        self.session.tellsDrags = false
        self.colorMode = colorMode
        for note in notes { log.add(OutputLine(kind: .info, text: note), me: nil, width: viewport.size.cols) }
    }

    /// Whether the room offers the lid (until `RoomSettings` says: jigsaw rooms).
    var lidAllowed: Bool { session.state?.settings.lid ?? false }

    /// Whether the game is over: quit, or refused for good.
    public var isFinished: Bool { session.phase == .finished || quitting }
    /// The exit status once finished: 1 when refused for good.
    public var exitStatus: Int32 { session.fatalError == nil ? 0 : 1 }
    /// Whether the link is up (as the driver last said).
    var isConnected: Bool { link.up }
    /// Whether the terminal should report mouse motion without a button (click mode).
    public var wantsMouseMotion: Bool { pointer.mode == .click }

    /// Whether the driver should connect now: the link is down and its wait is over.
    public func wantsConnection(now: Int64) -> Bool { !link.up && now >= link.reconnectAt }

    /// Picture files the player named for upload (`/create ... picture=FILE`):
    /// the driver reads each and hands it back (`.pictureFileRead`).
    public mutating func takePictureFiles() -> [PictureFile] { session.takePictureFiles() }

    /// Requests to write to the server now, in order.
    public mutating func takeRequests() -> [Request] {
        defer { outbox.removeAll() }
        return outbox
    }

    /// When the app next has something to do or show without any input (a `.tick` is due):
    /// the clock's next second, a hold's count, a throttled drag, a ping or a reconnect,
    /// a flooded room's next snapshot.
    public func nextWake(after t: Int64) -> Int64 {
        var wake = t + 1000 - t % 1000  // the clock on the status line
        wake = min(wake, link.up ? link.nextPing : link.reconnectAt)
        if let drag = pointer.nextDrag { wake = min(wake, drag) }
        if let lease = session.nextLeaseTick(after: t) { wake = min(wake, lease) }
        if let due = replay?.playback.nextDue() { wake = min(wake, due) }
        if isPresent(now: t), let keep = session.nextKeepDue(after: t) { wake = min(wake, keep) }
        if let catchUp = session.nextFloodSnapshot { wake = min(wake, catchUp) }
        return max(t, wake)
    }

    /// Takes one input at `now`, then moves what the session produced: requests to the
    /// outbox, lines to the message log or the window.
    public mutating func handle(_ input: Input, now: Int64) {
        switch input {
        case .key(let key):
            presence.seen(at: now)
            handle(key, now: now)
        case .resize(let rows, let columns):
            viewport.size = (rows, columns)
            needsDraw = true
        case .serverLine(let line):
            session.receive(line, now: now)
            needsDraw = true
        case .serverLines(let lines):
            // The app tells no drags (`tellsDrags` is off): a skipped one is never missed.
            // (A room followed by snapshots skips nearly every event anyway.)
            let thinned = session.eventFlood?.isFlooded == true ? lines : SupersededDrags.skipped(in: lines)
            let skippedBefore = session.skippedInFlood
            for line in thinned { session.receive(Substring(line), now: now) }
            // Events skipped unread change nothing on the screen.
            needsDraw = needsDraw || session.skippedInFlood - skippedBefore < thinned.count
        case .connected:
            link.connected(now: now)
            session.connected(now: now)
            needsDraw = true
        case .connectFailed(let why):
            if let told = link.connectFailed("cannot connect: \(why)", now: now) { addMessage(OutputLine(kind: .info, text: told)) }
            needsDraw = true
        case .connectionLost(let why):
            guard link.up else { break }
            session.connectionLost(why)  // tells the messages why
            link.lost(why, now: now)
            needsDraw = true
        case .tick: tick(now: now)
        case .note(let text): addMessage(OutputLine(kind: .info, text: text))
        case .pictureFileRead(let file, let result): session.pictureFileRead(file, result, now: now)
        }
        pump(now: now)
    }

    /// Time passed: keeps holds the player is visibly at, pings, sends a throttled drag,
    /// and redraws when the clock's second or a hold's count changed.
    mutating func tick(now t: Int64) {
        // A player pressing on its piece, or typing or moving the mouse lately, is
        // there: its holds must not lapse. A click-mode hold or a half-typed line
        // left alone is not being there (it once kept a piece forever).
        if isPresent(now: t) { session.keepHoldsWhilePresent(now: t) }
        if link.up, t >= link.nextPing {
            session.ping(now: t)
            link.nextPing = t + LinkStatus.pingInterval
        }
        if t / 1000 != lastDrawn / 1000 { needsDraw = true }  // the elapsed time and hint run out
        if let lease = session.nextLeaseTick(after: lastDrawn), t >= lease { needsDraw = true }  // the count of a lapsing hold
        if pointer.dragDue(now: t) { sendPendingPointer(now: t) }
        session.catchUpWithFlood(now: t)
        advanceReplay(now: t)
    }

    /// Whether the player is visibly there (`PlayerPresence`): the button down on a piece
    /// in hold mode (in click mode the button is up while the piece is held), or a key or
    /// mouse event within a third of the room's lease.
    func isPresent(now: Int64) -> Bool {
        guard let lease = session.state?.settings.leaseMillis else { return false }
        return presence.isPresent(now: now, buttonDown: pointer.mode == .hold && pointer.hold != nil, lease: lease)
    }

    /// Moves what the session queued and said: requests out, lines to the log or the window.
    mutating func pump(now: Int64) {
        if link.up { outbox += session.takeOutgoing() }
        if session.phase == .joined || session.phase == .choosingRoom { link.joined(now: now) }
        if let rooms = session.takeRoomChoices() {
            overlay = Overlay(title: "pick a room: /join NAME [PASSWORD]", lines: rooms)
            overlay?.closesOnJoin = true
            needsDraw = true
        }
        if let loaded = session.takeLoadedReplay() { startReplay(loaded, now: now) }
        if session.phase == .joined, overlay?.closesOnJoin == true {
            overlay = nil
            needsDraw = true
        }
        for line in session.takeOutput() {
            needsDraw = true
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

    /// Offers a line to the message pane (`MessageLog` keeps what is worth reading).
    mutating func addMessage(_ line: OutputLine) {
        log.add(line, me: session.myID, width: viewport.size.cols)
        needsDraw = true
    }

    /// Scrolls the message pane back (positive) or forward, within its history.
    mutating func scrollMessages(by lines: Int) {
        log.scroll(by: lines, width: viewport.size.cols, shown: viewport.layout.messageLines)
        needsDraw = true
    }

    /// The screen as it is at `now` (the view fitted, followed and clamped first).
    public mutating func scene(now t: Int64) -> Scene {
        if let replay {
            lastDrawn = t
            needsDraw = false
            return replayScene(replay, now: t)
        }
        viewport.update(for: session)
        let st = session.state
        let hintUntil = session.myID.flatMap { st?.players[$0]?.hintUntil } ?? 0
        var scene = Scene(width: viewport.size.cols, height: viewport.size.rows, colorMode: colorMode, room: session.room ?? "(pick a room)", state: st,
                          picture: session.mirror?.picture, myID: session.myID, names: session.names, view: viewport.origin, zoom: viewport.zoom,
                          showNumbers: viewport.showNumbers, now: t,
                          rttMillis: session.rttMillis, connectionNotice: link.up ? nil : link.notice ?? "connecting...",
                          clockStoppedAt: link.clockStoppedAt,
                          messages: log.shownLines, messageScroll: log.scroll, solvedBanner: session.solvedBanner,
                          showHint: hintUntil > t, editor: editor, overlay: overlay, lens: lens, lidAllowed: lidAllowed)
        scene.solvedStats = session.solvedStats.map(PlayerText.statsText)
        scene.stack = session.stack
        scene.watching = session.watching
        scene.watchers = session.watchers.sorted { $0.key < $1.key }.map(\.value)
        scene.viewShift = viewport.shift
        scene.choosingRoom = session.phase == .choosingRoom
        scene.awaitingRoomList = session.awaitsRoomList
        scene.chatOnly = log.chatOnly
        lastDrawn = t
        needsDraw = false
        return scene
    }
}
