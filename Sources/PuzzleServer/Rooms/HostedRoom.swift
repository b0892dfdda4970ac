import PuzzleCore
import PuzzleProtocol

/// A room the server hosts: the authoritative core state, its members, and the
/// bytes broadcast to them during the current loop turn.
final class HostedRoom {
    let name: String
    let password: String?
    var state: RoomState
    /// The picture, scaled for terminals: its pixels go with a version 1
    /// snapshot, its hash with a version 2 one (the pixels on `PICTURE`).
    var picture: Picture? { didSet { cachedHash = nil; cachedWires = [:] } }
    /// `pictureHash`, made on first use after the picture changes, and the
    /// `PICTURE` lines encoded off the loop (`PictureEncoding`).
    private var cachedHash: String?
    private var cachedWires: [PictureFormat: PictureWire] = [:]
    /// The picture's content hash (nil without a picture).
    var pictureHash: String? {
        if cachedHash == nil, let picture { cachedHash = picture.contentHashHex }
        return cachedHash
    }
    /// The picture's `PICTURE` lines in one format, once encoded.
    func pictureWire(_ format: PictureFormat) -> PictureWire? {
        cachedWires[format]
    }
    /// Keeps `wire` for the next `PICTURE`s, unless the picture changed while
    /// it was encoded.
    func keep(_ wire: PictureWire, format: PictureFormat) {
        guard wire.hash == pictureHash else { return }
        cachedWires[format] = wire
    }
    /// `S table` and `S edges` of the current puzzle (they change only with
    /// it), kept for the next snapshot.
    private var cachedLayout: (puzzle: Int, spec: PuzzleSpec, lines: [UInt8])?
    var layoutLines: [UInt8] {
        if let c = cachedLayout, c.puzzle == state.puzzleIndex, c.spec == state.spec { return c.lines }
        var lines: [UInt8] = []
        SnapshotCodec.encodeLayout(state, into: &lines)
        cachedLayout = (state.puzzleIndex, state.spec, lines)
        return lines
    }
    /// `LAYOUT`'s lines for the current puzzle (its start layout changes only
    /// with the puzzle), kept like `layoutLines`: a room of browsers asks once each.
    private var cachedStart: (puzzle: Int, spec: PuzzleSpec, lines: [UInt8])?
    var startLayoutLines: [UInt8] {
        if let c = cachedStart, c.puzzle == state.puzzleIndex, c.spec == state.spec { return c.lines }
        var lines: [UInt8] = []
        // Three bytes a piece; `S piece` lines only for a layout that does not fit that.
        if !StartLayoutCodec.encode(state.startPieces, into: &lines) { SnapshotCodec.encodeStartLayout(state, into: &lines) }
        cachedStart = (state.puzzleIndex, state.spec, lines)
        return lines
    }
    /// `LAYOUT <puzzle>`'s lines for a solved puzzle the room keeps (its
    /// table, edges and start layout, from its replay's spec and seed): the
    /// last one asked for, kept while browsers open the same replay.
    private var cachedKeptLayout: (puzzle: Int, lines: [UInt8])?
    func keptLayoutLines(_ replay: PuzzleReplay) -> [UInt8] {
        if let c = cachedKeptLayout, c.puzzle == replay.puzzle { return c.lines }
        let start = replay.startState()
        var lines: [UInt8] = []
        SnapshotCodec.encodeLayout(start, into: &lines)
        if !StartLayoutCodec.encode(start.startPieces, into: &lines) { SnapshotCodec.encodeStartLayout(start, into: &lines) }
        cachedKeptLayout = (replay.puzzle, lines)
        return lines
    }
    /// Members in join order.
    private(set) var members: [Connection] = []
    /// When the next clock mark is due while the puzzle clock runs (half a
    /// lead before the last one runs out); see `PuzzleServer.markClocks`.
    var clockMarkDue: Int64 = .min
    /// Set while clock marks fail to be written (logged once per streak).
    var clockMarkFailing = false
    /// The latest events, for clients coming back (`REJOIN`, `SYNC <seq> <run>`).
    private(set) var recent: RecentEvents
    /// The current puzzle's replay as it is played (kept in every snapshot).
    var recorder: ReplayRecorder
    /// Solved puzzles whose replays the room keeps, oldest first, without
    /// their moves (the files have them): what HISTORY lists.
    var history: [PuzzleReplay]
    /// A solved puzzle's replay whose file could not be written yet (a full
    /// disk): tried again before each snapshot, which waits for it (the
    /// journal the snapshot would compact still holds the puzzle's moves).
    var unsavedReplay: PuzzleReplay?
    /// The replay REPLAY read last, until its last page is sent (its pages
    /// are asked for one after another).
    var lastReplayRead: PuzzleReplay?
    /// The room's seq at the last once-a-second sweep, and how many sweeps
    /// in a row found it unchanged: the quietest rooms' rejoin rings go
    /// first when the server's are over their cap.
    var seqAtSweep: UInt64 = 0
    var quietSweeps = 0

    /// This turn's broadcast bytes: every event line, encoded once.
    private(set) var chunk = ByteChunk(capacity: 4096)
    /// For each line in `chunk`: where it ends and, for drags, which piece (so
    /// slow readers can coalesce), or for other piece events which piece (so a
    /// stale held-back drag can be dropped: a rotation, which says nothing
    /// of where the piece is, sends it first instead); `isTalk`: chat or a
    /// watcher coming or going (`broadcast(line:)`), what a member with its
    /// events off (`EVENTS off`) is still sent.
    private(set) var lines: [(end: Int, piece: Int32, isDrag: Bool, isTalk: Bool, isRotation: Bool)] = []
    /// This turn's lines as WebSocket frames, for the browsers among the
    /// members; see `webSocketFrames`.
    private let frames = BroadcastFrames()
    /// A sequenced event's line, for `recent` (which keeps a copy of its own):
    /// reused, so that keeping a line costs no allocation.
    private var recentLine: [UInt8] = []

    /// `run` names this opening of the room (random: see `RecentEvents`).
    /// `replay`: the current puzzle's replay so far (nil: nothing played yet);
    /// `history`: the kept replays' summaries.
    init(name: String, password: String?, state: RoomState, picture: Picture?, run: UInt64,
         replay: PuzzleReplay? = nil, history: [PuzzleReplay] = []) {
        self.name = name
        self.password = password
        self.state = state
        self.picture = picture
        recent = RecentEvents(run: run, seq: state.seq)
        recorder = replay.map(ReplayRecorder.init(replay:)) ?? ReplayRecorder(startOf: state)
        self.history = history
    }

    /// What the store keeps of the room.
    var stored: StoredRoom {
        StoredRoom(snapshot: RoomSnapshot(name: name, state: state, picture: nil), password: password, replay: recorder.replay)
    }

    /// Records the durable events of a request about to be applied to the
    /// room's state. Returns the replay of a puzzle they solve.
    func record(_ events: [RoomEvent]) -> PuzzleReplay? {
        var solved: PuzzleReplay?
        for e in events where e.body.isDurable {
            if let done = Self.observe(e, recorder: &recorder, state: &state) { solved = done }
        }
        return solved
    }

    /// Borrows the state rather than copying it (see `plan`).
    private static func observe(_ e: RoomEvent, recorder: inout ReplayRecorder, state: inout RoomState) -> PuzzleReplay? {
        recorder.observe(e, before: state)
    }

    /// The core's `plan` on the room's state where it lies. Called as
    /// `room.state.plan(...)`, a method of the whole value read through this
    /// class copies the state first (a retain and release of every array in
    /// it, per request); an `inout` borrow does not.
    func plan(_ action: Action, by player: PlayerID, at time: Int64, into events: inout [RoomEvent]) throws(PuzzleError) -> ActionOutcome {
        try Self.plan(action, by: player, at: time, into: &events, on: &state)
    }

    private static func plan(_ action: Action, by player: PlayerID, at time: Int64, into events: inout [RoomEvent],
                             on state: inout RoomState) throws(PuzzleError) -> ActionOutcome {
        try state.plan(action, by: player, at: time, into: &events)
    }

    /// The core's `implicitPiece`, without copying the state (see `plan`).
    func implicitPiece(of player: PlayerID) -> ImplicitPiece {
        Self.implicitPiece(of: player, on: &state)
    }

    private static func implicitPiece(of player: PlayerID, on state: inout RoomState) -> ImplicitPiece {
        state.implicitPiece(of: player)
    }

    /// Sessions watching, not playing, in the order they came (who watches
    /// is the server's, not the room state's: the router keeps it).
    private(set) var watchers: [PlayerSession] = []

    func addWatcher(_ session: PlayerSession) {
        watchers.append(session)
    }

    func removeWatcher(_ session: PlayerSession) {
        watchers.removeAll { $0 === session }
    }

    /// The room as ROOMS lists it.
    var listing: RoomListing {
        let s = state
        return RoomListing(name: name, kind: s.spec.kind, rows: s.spec.rows, cols: s.spec.cols, rotation: s.spec.rotation,
                           players: s.players.count, password: password != nil, puzzle: s.puzzleIndex,
                           correct: s.correctCount, total: s.pieceCount, watchers: watchers.count,
                           seats: s.settings.seats, solved: s.isSolved)
    }

    /// The largest player id the room remembers, present or absent (0 if none).
    var largestPlayerID: Int {
        max(state.players.keys.map(\.rawValue).max() ?? 0, state.absent.keys.map(\.rawValue).max() ?? 0)
    }

    /// `S watcher` records for the room's watchers (for a version 2 snapshot
    /// or catch-up; who watches is the server's, not the room state's).
    func appendWatchers(to bytes: inout [UInt8]) {
        for w in watchers { StateRecordCodec.encode(.watcher(id: w.listedID, name: w.listedName), into: &bytes) }
    }

    /// `member` gets this turn's broadcast from byte `mark` on (a joiner's
    /// snapshot already holds everything broadcast before it).
    func add(_ member: Connection, mark: Int) {
        members.append(member)
        member.roomMark = min(mark, chunk.count)
    }

    /// `member` is handed this turn's broadcast up to byte `mark`, then
    /// gets no more of it.
    func remove(_ member: Connection, mark: Int) {
        member.syncRoom(upTo: mark)
        if let i = members.firstIndex(where: { $0 === member }) { members.remove(at: i) }
    }

    /// Lets go of the events kept for players coming back (the server's
    /// rings are over `rejoin_memory_mb`): see `RecentEvents.forget`.
    func forgetRecentEvents() { recent.forget() }

    /// Encodes events once, straight into this turn's broadcast chunk.
    func broadcast(_ events: [RoomEvent]) {
        for e in events {
            let start = chunk.count
            EventCodec.encode(e, into: &chunk)
            if e.body.isSequenced {
                let isNext = if case .nextPuzzle = e.body { true } else { false }
                recentLine.removeAll(keepingCapacity: true)
                recentLine.append(bytes: chunk.bytes(start, chunk.count))
                recent.append(seq: e.seq, isNext: isNext, line: recentLine)
            }
            let (piece, isDrag) = Self.piece(of: e.body)
            let isRotation = if case .rotated = e.body { true } else { false }
            lines.append((chunk.count, piece, isDrag, false, isRotation))
        }
    }

    /// Broadcasts a raw line that belongs to no piece: chat (`say`), a
    /// watcher coming or going.
    func broadcast(line: [UInt8]) {
        chunk.append(line)
        lines.append((chunk.count, -1, false, true, false))
    }

    /// Hands this turn's bytes to every member and starts a new turn.
    func endTurn() {
        guard chunk.count > 0 else { return }
        for m in members { m.syncRoom() }
        chunk = ByteChunk(capacity: max(4096, chunk.count))
        lines.removeAll(keepingCapacity: true)
        frames.reset()
        for m in members { m.roomMark = 0 }
    }

    /// This turn's broadcast as WebSocket frames, line for line with `lines`:
    /// framed here once, as far as `chunk` goes now, for every WebSocket member
    /// (`Connection.syncRoom`) rather than once per browser.
    var webSocketFrames: BroadcastFrames {
        while frames.lineCount < lines.count {
            let i = frames.lineCount
            let start = i == 0 ? 0 : lines[i - 1].end
            frames.append(line: chunk.bytes(start, lines[i].end))
        }
        return frames
    }

    private static func piece(of body: EventBody) -> (Int32, Bool) {
        switch body {
        case .dragged(let p, _, _, _): return (Int32(p), true)
        case .grabbed(let p, _), .rotated(let p, _, _, _), .placed(let p, _, _, _), .returned(let p, _, _): return (Int32(p), false)
        case .swapped(let p, _, _): return (Int32(p), false)
        default: return (-1, false)
        }
    }

    /// Index of the first line ending after byte `offset` (binary search).
    func firstLine(after offset: Int) -> Int {
        var lo = 0, hi = lines.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lines[mid].end <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
