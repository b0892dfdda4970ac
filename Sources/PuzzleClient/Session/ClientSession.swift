import PuzzleCore
import PuzzleProtocol

/// The client's whole view of one connection, as a pure value: the mirrored room,
/// the players' names, the requests in flight, and what happened, as readable lines.
///
/// The runners feed it server lines (`receive`) and the player's commands
/// (`submit`/`perform`), send what `takeOutgoing()` returns, and show what
/// `takeOutput()` returns. It never touches a socket, a terminal or a clock:
/// times (`now`, milliseconds of any monotonic clock) are passed in.
///
/// Parts with their own state it delegates to: `RoomSeat` (the room it is
/// in or asked for, and the one a switch left), `LocalHand` (this player's
/// hand ahead of the server), `Roster` (names, watchers), `RoomPicker` (the
/// start-up room list), `PictureUploader` (`/create ... picture=FILE`),
/// `ReplayFetch` (`/history`, `/replay`, the solved banner's numbers) and
/// `PictureCache`; the uploader and the fetch answer with `SessionEffects`
/// that `apply` carries out. Its extension files are its own work: the
/// player's commands (`+Commands`), server lines and replies (`+Replies`),
/// events into the mirror (`+Events`; `EventText` words them) and mouse play
/// (`+Pointer`).
public struct ClientSession: Sendable {
    public let name: String
    /// The room this session plays in (or is joining); nil while the player picks one.
    public var room: String? { seat.room }
    /// The password presented with `room`.
    public var password: String? { seat.password }
    /// Watching the room (`WATCH`), not playing in it.
    public var watching: Bool { seat.watching }
    /// Where the player sits, and the seat a `/join` in flight left.
    var seat: RoomSeat

    /// Where the connection is in its life.
    public enum Phase: Hashable, Sendable {
        /// No connection (not yet, or lost).
        case disconnected
        /// HELLO and JOIN sent, the JOIN reply not yet received.
        case joining
        /// Greeted, in no room: the server has several and the player picks one (`/join`).
        case choosingRoom
        /// In the room, mirroring it.
        case joined
        /// Done: quit acknowledged, or refused for good (see `fatalError`).
        case finished
    }

    public internal(set) var phase: Phase = .disconnected
    /// The mirrored room (from the JOIN/SYNC snapshot, kept current with events).
    public internal(set) var mirror: RoomSnapshot?
    /// Which loose piece lies on which, from the events since the last snapshot.
    public internal(set) var stack = TableStack()
    /// The resume token the server gave (protocol version 2): presented on
    /// every reconnect of this run, so the player comes back as itself (id,
    /// colour, moves, hint used).
    public internal(set) var resumeToken: String?
    /// The room this player last played in (joined, not watched), for the
    /// next run to go back to (`ResumeTokenFile` keeps it).
    public internal(set) var lastRoom: String?
    /// The room the client is going back to at start-up without being asked
    /// (`lastRoom`), while that JOIN is in flight: a refusal lists the rooms.
    var goingBack: String?
    /// This connection's player id in the room.
    public internal(set) var myID: PlayerID?
    /// Everyone seen in the room, including those who left (for readable lines).
    public var names: [PlayerID: String] { roster.names }
    /// Who was seen (names) and who watches now.
    var roster = Roster()
    /// Requests sent and not yet answered, oldest first.
    public internal(set) var pending: [PendingRequest] = []
    /// Round-trip time of the last PING.
    public internal(set) var rttMillis: Int64?
    /// Set while the current puzzle is solved: "puzzle 0 solved in 12.3 s".
    public internal(set) var solvedBanner: String?
    /// The solved puzzle's numbers for the banner (its HISTORY entry: moves,
    /// who placed what), once the server said them.
    public var solvedStats: PuzzleReplay? { replays.solvedStats }
    /// Solved puzzles: `/history`, `/replay` (the replay being fetched, and the
    /// one fetched until the full screen takes it) and the banner's numbers.
    var replays = ReplayFetch()
    /// Whether drags are told as lines: the `dragged` events and the replies
    /// to the player's drags. Plain mode prints them; the full screen's
    /// message log never shows them, so `PlayApp` turns this off and no
    /// sentence is built for each of the hundreds of drags a second of a busy room.
    public var tellsDrags = true
    /// Milliseconds between two sendings of the room's drags that this
    /// client asks for (`PACE`, right after HELLO), for a driver that draws
    /// at most that often; nil: every drag as it comes.
    public var dragPace: Int?
    /// Past how many sequenced events a second the room is followed by
    /// snapshots rather than event by event (`EventFlood`); nil: never.
    public var eventFlood: EventFlood?
    /// Event lines skipped unread in a flood so far (a batch of nothing
    /// else needs no new frame).
    public internal(set) var skippedInFlood = 0

    /// When a flooded room's next snapshot is due (nil: none is), for the
    /// driver's wake-up: not while one is on its way.
    public var nextFloodSnapshot: Int64? {
        guard let flood = eventFlood, !syncing, phase == .joined else { return nil }
        return flood.nextSnapshot
    }
    /// User commands that failed (refused by the server, or not understood).
    public internal(set) var failedCommands = 0
    /// Why the session cannot go on (JOIN or HELLO refused), if so.
    public internal(set) var fatalError: String?
    /// Whether a SYNC is in flight; events until its snapshot are not applied.
    public internal(set) var syncing = false
    /// This player's hand ahead of the server: its last drag's point, lapsed holds, Tab's walk.
    var hand = LocalHand()
    /// The point the last drag asked for, ahead of the server's echo.
    var localDrag: (piece: Int, point: Point)? { hand.drag }

    /// The room as it was when the link dropped, until the rejoin's snapshot
    /// says what changed meanwhile.
    var awayFrom: RoomState?
    /// The mirrored room's run (from the last JOIN or SYNC reply): with the
    /// mirror's seq, the point a rejoin catches up from (`REJOIN`).
    var roomRun: String?
    /// Who watches the room (`S watcher` lines, `watching`/`unwatching` events).
    public var watchers: [PlayerID: String] { roster.watchers }
    var stateLines: [String] = []
    /// Pictures this session was sent or drew, by hash: kept across
    /// reconnects, rooms and puzzles (see `PictureCache`).
    public internal(set) var pictures = PictureCache()
    var outgoing: [Request] = []
    var output: [OutputLine] = []
    /// The server's rooms when the player has to pick one at start-up, until taken.
    var roomPicker = RoomPicker()
    /// Picture files for the driver to read (`takePictureFiles`) and hand
    /// back (`pictureFileRead`): the session itself reads no file. And the
    /// upload under way, until the server has it.
    var uploads = PictureUploader()

    /// Whether the room list the client asked for by itself (at start-up, or
    /// when it could not go back) is still on its way.
    public var awaitsRoomList: Bool {
        pending.contains { $0.request == .rooms && !$0.fromUser }
    }

    /// A request on the wire, waiting for its reply.
    public struct PendingRequest: Hashable, Sendable {
        public var request: Request
        /// Whether the player asked for it (its reply is shown) or the client did.
        public var fromUser: Bool
        public var sentAt: Int64
        /// Said once the server accepts it (a `place` is a drag whose reply
        /// the full screen does not list).
        public var successNote: String? = nil
        /// Sent behind a HELLO that was refused: its refusal (`NO_HELLO`) is expected and not told.
        public var orphaned = false
    }

    /// `room` nil: list the server's rooms, join the only one, or let the player pick.
    /// `resumeToken`: a token kept from an earlier run (`ResumeTokenFile`), so
    /// the first HELLO already comes back as that player.
    /// `watch`: follow the room without playing (`WATCH`), as `--watch` asks.
    /// `lastRoom`: the room this player was in on an earlier run (kept with
    /// its token): with no `room` asked, the client goes back to it if the
    /// server still has it, else lists the rooms saying why.
    public init(name: String, room: String?, password: String? = nil, resumeToken: String? = nil, watch: Bool = false,
                lastRoom: String? = nil) {
        self.name = name
        self.seat = RoomSeat(room: room, password: password, watching: watch)
        self.resumeToken = resumeToken
        self.lastRoom = lastRoom
    }

    // MARK: Connection life

    /// A connection is up: greets and joins (pipelined).
    public mutating func connected(now: Int64) {
        if phase != .joined, seat.previous != nil {
            // A switch whose answer the dropped link took along: back to the
            // room the player was in (the server may or may not have moved it).
            emit(.info, "/join \(room ?? "") was not done: the connection dropped; try it again")
            _ = seat.goBack()
        }
        // Only the room this client is going back to.
        awayFrom = phase == .disconnected && room != nil && mirror?.name == room ? state : nil
        pending.removeAll()
        connectedAgain(now: now)
    }

    /// Greets and joins on the connection as it is (requests still pending stay pending).
    mutating func connectedAgain(now: Int64) {
        stateLines.removeAll()
        phase = .joining
        syncing = false
        // A new connection sends every event again.
        eventFlood?.restart()
        hand.dragSettled()
        seat.forgetSwitch()
        send(.hello(version: ProtocolVersion.current, name: name, token: resumeToken), fromUser: false, now: now)
        if let pace = dragPace { send(.pace(pace), fromUser: false, now: now) }
        let mirrored = mirror.flatMap { m in roomRun.map { (room: m.name, seq: m.state.seq, run: $0) } }
        if let entry = seat.entryRequest(mirrored: mirrored) {
            send(entry, fromUser: false, now: now)
        } else {
            phase = .choosingRoom
            send(.rooms, fromUser: false, now: now)
        }
    }

    /// The connection is gone; what was in flight is lost.
    public mutating func connectionLost(_ why: String) {
        apply(uploads.linkLost())
        pending.removeAll()
        stateLines.removeAll()
        outgoing.removeAll()
        hand.dragSettled()
        syncing = false
        // No round trip is being measured any more: show none, not the last one.
        rttMillis = nil
        if phase != .finished {
            phase = .disconnected
            emit(.info, "connection lost: \(why)")
        }
    }

    /// Requests to write to the server now, in order (each is now pending).
    public mutating func takeOutgoing() -> [Request] {
        defer { outgoing.removeAll() }
        return outgoing
    }

    /// The rooms to pick from, once, when the start-up list leaves the player
    /// a choice (each `room NAME kind=... players=N ...`).
    public mutating func takeRoomChoices() -> [String]? {
        roomPicker.take()
    }

    /// Readable lines produced since the last call, in order.
    public mutating func takeOutput() -> [OutputLine] {
        defer { output.removeAll() }
        return output
    }

    /// A replay the server sent since the last call (the full screen plays it).
    public mutating func takeLoadedReplay() -> LoadedReplay? {
        replays.takeLoaded()
    }

    /// Picture files the player named (`/create ... picture=FILE`), for the
    /// driver to read and hand back through `pictureFileRead` (in order).
    public mutating func takePictureFiles() -> [PictureFile] {
        uploads.takeFiles()
    }

    /// The driver read `file` (or could not): its upload starts.
    public mutating func pictureFileRead(_ file: PictureFile, _ result: Result<[UInt8], PictureFileError>, now: Int64) {
        apply(uploads.fileRead(file, result, connected: phase == .joined || phase == .choosingRoom), now: now)
    }

    /// Whether a request the player asked for still awaits its reply.
    public var awaitingUserReply: Bool { pending.contains { $0.fromUser } }

    /// Sends a PING whose reply measures the round trip.
    public mutating func ping(now: Int64) {
        guard phase == .joined || phase == .joining || phase == .choosingRoom else { return }
        send(.ping("\(now)"), fromUser: false, now: now)
    }

    // MARK: Mirror helpers

    /// The room state being mirrored.
    public var state: RoomState? { mirror?.state }

    /// The piece this player holds (the latest grabbed), if any.
    public var heldPiece: Int? {
        guard let myID, let st = state else { return nil }
        return st.players[myID]?.holding.last
    }

    /// Where `piece` lies on this screen: where the last local drag put it
    /// (ahead of the server's echo), else where the room says.
    public func shownPosition(of piece: Int) -> Point? {
        guard let st = state else { return nil }
        return hand.position(of: piece, in: st)
    }

    /// When the seconds left on this player's soonest-lapsing hold next change
    /// (the status line counts them down), or nil when it holds nothing.
    public func nextLeaseTick(after t: Int64) -> Int64? {
        guard let myID, let expiry = state?.soonestLapsingHold(of: myID)?.expiresAt, expiry > t else { return nil }
        // "goes back in N s" shows ceil(left / 1000): it changes as left reaches the next multiple of 1000.
        return expiry - (expiry - t - 1) / 1000 * 1000
    }

    /// When `keepHoldsWhilePresent` next has a hold to renew (a third of its
    /// lease gone), or nil when this player holds nothing.
    public func nextKeepDue(after t: Int64) -> Int64? {
        guard phase == .joined, let me = myID, let st = state else { return nil }
        let lease = st.settings.leaseMillis
        let due = (st.players[me]?.holding ?? []).compactMap { piece -> Int64? in
            // One in flight is waited for (its reply moves the lock's end).
            guard let lock = st.locks[piece], !pending.contains(where: { $0.request == .keep(piece) }) else { return nil }
            return lock.expiresAt - lease + lease / 3 + 1
        }
        return due.min().map { max(t, $0) }
    }

    /// Renews this player's holds while it is visibly there (`PlayApp` decides:
    /// the mouse button down on its piece, keys or the mouse lately): a hold
    /// whose lease has run down by a third gets a KEEP, so it never lapses
    /// under a player who is looking for the piece's place or chatting. An
    /// abandoned hold still lapses: nothing calls this then.
    public mutating func keepHoldsWhilePresent(now: Int64) {
        guard phase == .joined, let me = myID, let st = state else { return }
        let lease = st.settings.leaseMillis
        for piece in st.players[me]?.holding ?? [] {
            guard let lock = st.locks[piece], lock.expiresAt - now < lease - lease / 3,
                  !pending.contains(where: { $0.request == .keep(piece) }) else { continue }
            send(.keep(piece), fromUser: false, now: now)
        }
    }

    /// A player's display name.
    public func displayName(_ id: PlayerID) -> String {
        roster.displayName(id)
    }

    mutating func send(_ request: Request, fromUser: Bool, now: Int64, successNote: String? = nil) {
        // A watcher does not play: said here, not refused by the server each click.
        if watching, phase == .joined, request.isPlay {
            if fromUser || request.verb == "GRAB" { emit(.error, "you are watching \(room ?? "this room"): /join \(room ?? "it") to play") }
            return
        }
        pending.append(PendingRequest(request: request, fromUser: fromUser, sentAt: now, successNote: successNote))
        outgoing.append(request)
    }

    /// Asks for the solved puzzle's numbers (time, moves, who placed what)
    /// for the banner, once per puzzle.
    mutating func requestSolvedStats(_ puzzle: Int, now: Int64) {
        guard replays.needsStats(of: puzzle), phase == .joined || phase == .joining else { return }
        if pending.contains(where: { $0.request == .history(puzzle) }) { return }
        send(.history(puzzle), fromUser: false, now: now)
    }

    /// Does what a part that owns its state (the upload, the replay fetch) asks:
    /// says its lines, counts its failed command, sends its requests (`now`:
    /// when; effects that only say need none).
    mutating func apply(_ effects: SessionEffects, now: Int64 = 0) {
        output += effects.lines
        if effects.failed { failedCommands += 1 }
        for s in effects.requests { send(s.request, fromUser: s.fromUser, now: now, successNote: s.successNote) }
    }

    mutating func emit(_ kind: OutputLine.Kind, _ text: String, about: OutputLine.Subject? = nil) {
        output.append(OutputLine(kind: kind, text: text, about: about))
    }
}

/// One readable line of what happened, as plain mode prints it.
public struct OutputLine: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A successful reply to the player's command (`ok: ...`), or a listing line.
        case reply
        /// A refusal (`error CODE: ...`), from the server or the client.
        case error
        /// Something that happened in the room.
        case event
        /// A drag (frequent; interactive mode does not list these).
        case drag
        /// A chat line.
        case chat
        /// Connection news and local answers (help, board).
        case info
    }

    /// What a line is about, as typed values, for a reader that chooses lines by what they
    /// say rather than by their text (the full screen's message log).
    public enum Subject: Hashable, Sendable {
        /// A chat line: who spoke, and their words as sent.
        case chat(from: PlayerID, words: String)
        /// A room event; `completes`: a drop that made a whole board row or column right.
        case event(EventBody, completes: Bool)
        /// The reply to a request the player made.
        case reply(to: Request)
        /// The client reloaded the room by itself (after a missed event, or for
        /// a new puzzle's picture): plain mode tells it, the full screen need not.
        case resync
        /// A listing the player asked for (WHO, ROOMS): one of its entries, or its end.
        case listing(ListingPart)
    }

    /// A part of a WHO or ROOMS listing, as the full screen's listing window takes it.
    public enum ListingPart: Hashable, Sendable {
        /// One entry as a player reads it: `carol (#1)  0 moves` for `S who 1 carol moves=0 holding=-`.
        case entry(String)
        /// The listing's reply: nothing more comes.
        case end
    }

    public var kind: Kind
    public var text: String
    /// What the line tells, where the session knows (nil for local notes and old callers).
    public var about: Subject?

    public init(kind: Kind, text: String, about: Subject? = nil) {
        self.kind = kind
        self.text = text
        self.about = about
    }
}
