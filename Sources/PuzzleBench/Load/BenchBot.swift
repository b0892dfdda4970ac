import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// One request a bot has sent and not yet had answered. Replies come back in
/// order, so the bot keeps these in a FIFO and matches each reply to the head.
struct PendingRequest {
    enum Kind: UInt8 { case hello, join, grab, drag, drop, release, next, digest, sync }
    var kind: Kind
    var piece: Int32
    /// Monotonic ns the request was meant to go out (drags: its paced slot).
    var intended: UInt64
}

/// One bot player: its connection, what it has asked and not been answered,
/// how far it has followed its room's event stream, and where it is in its
/// grab-drag-drop cycle.
final class BenchBot {
    enum Phase: Equatable {
        /// Connected; HELLO and JOIN sent.
        case joining
        /// Wants a piece (none free, or between cycles).
        case idle
        /// GRAB sent, reply pending.
        case grabbing
        /// Holds `piece`; `step` drags of its path sent so far.
        case holding
        /// The puzzle is solved; waiting for the next one.
        case waitingForPuzzle
        /// Stopped playing (end of run or disconnected).
        case finished
    }

    let index: Int
    let room: Int
    let socket: Socket
    @exclusivity(unchecked) var connected = true
    @exclusivity(unchecked) var phase: Phase = .joining
    @exclusivity(unchecked) var player = -1

    // Output not yet written to the socket.
    @exclusivity(unchecked) var out: [UInt8] = []
    @exclusivity(unchecked) var outSent = 0
    @exclusivity(unchecked) var queuedForFlush = false
    @exclusivity(unchecked) var wantsWritable = false

    /// Set for a `--websocket` bot: its framing both ways (`out` then holds
    /// request lines still to frame).
    @exclusivity(unchecked) var webSocket: WebSocketBotLink?

    /// A TCP bot's lines, framed where each read put them (a line cut between
    /// reads is carried in it). Longer than half the read buffer: a failure.
    @exclusivity(unchecked) var framer = LineFramer(maxLineLength: BotConnections.readBufferSize / 2)
    /// A WebSocket bot's incomplete frame, carried in front of the next read.
    @exclusivity(unchecked) var carry: [UInt8] = []
    /// `S` lines (LF-terminated) of the snapshot being received with JOIN.
    @exclusivity(unchecked) var stateLines: [UInt8] = []

    // In-flight requests, a ring buffer (head..<tail, grows when full).
    @exclusivity(unchecked) private var ring = [PendingRequest](repeating: PendingRequest(kind: .hello, piece: 0, intended: 0), count: 16)
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private(set) var inFlight = 0

    /// The seq of the last sequenced event this bot received (from its JOIN
    /// snapshot on); its room's reference mirror is verified to match.
    @exclusivity(unchecked) var lastSeq: UInt64 = 0

    // The current cycle: piece and drag steps sent (the path is in `PathTable`).
    @exclusivity(unchecked) var piece = -1
    @exclusivity(unchecked) var step = 0
    /// Paced slots that came while a GRAB was in flight: owed drags, sent as
    /// soon as the grab succeeds, each timed from its own slot.
    @exclusivity(unchecked) var owed: [UInt64] = []
    @exclusivity(unchecked) var owedHead = 0
    /// What the bot has claimed in its room's `claimed` (-1: nothing): the
    /// piece (or part, `PartBuilder.claimKey`) it grabs or holds, and the
    /// part it carries that to join.
    @exclusivity(unchecked) var claim = -1
    @exclusivity(unchecked) var claimJoining = -1
    /// Consecutive refused grabs (HELD), to back off to another piece.
    @exclusivity(unchecked) var refusedInARow = 0
    /// Listed for a retry because no piece was free (`--rate max`).
    @exclusivity(unchecked) var listedIdle = false
    /// The DIGEST check has been answered.
    @exclusivity(unchecked) var checked = false
    /// Asked for the room's final snapshot (one bot a room), and whether it came.
    @exclusivity(unchecked) var snapshotAsked = false
    @exclusivity(unchecked) var snapshotChecked = false

    init(index: Int, room: Int, socket: Socket) {
        self.index = index
        self.room = room
        self.socket = socket
    }

    // MARK: - In-flight requests

    func expect(_ kind: PendingRequest.Kind, piece: Int = -1, intended: UInt64) {
        if inFlight == ring.count {
            // Unroll into a larger ring, oldest first.
            var bigger = [PendingRequest](repeating: ring[0], count: ring.count * 2)
            for i in 0..<inFlight { bigger[i] = ring[(head + i) % ring.count] }
            ring = bigger
            head = 0
        }
        ring[(head + inFlight) % ring.count] = PendingRequest(kind: kind, piece: Int32(piece), intended: intended)
        inFlight += 1
    }

    /// The oldest unanswered request, removed; nil for a reply nobody asked for.
    func answered() -> PendingRequest? {
        guard inFlight > 0 else { return nil }
        let r = ring[head]
        head = (head + 1) % ring.count
        inFlight -= 1
        return r
    }

    // MARK: - Owed drags

    var owedCount: Int { owed.count - owedHead }

    func owe(_ slot: UInt64) { owed.append(slot) }

    func takeOwed() -> UInt64? {
        guard owedHead < owed.count else { return nil }
        let t = owed[owedHead]
        owedHead += 1
        if owedHead == owed.count { owed.removeAll(keepingCapacity: true); owedHead = 0 }
        return t
    }

    func forgetOwed() -> Int {
        let n = owedCount
        owed.removeAll(keepingCapacity: true)
        owedHead = 0
        return n
    }

    // MARK: - Output

    /// Queues a request (written by `Request.encode`, inlined here).
    @inline(__always)
    func send(_ request: Request) {
        request.encode(into: &out)
    }

    /// Writes as much queued output as the socket takes. Returns false when
    /// the connection failed.
    func flush() -> Bool {
        if let webSocket { return webSocket.flush(lines: &out, to: socket) }
        while outSent < out.count {
            let result: IOResult
            do {
                result = try out.withUnsafeBytes { (all) throws(Errno) -> IOResult in
                    try socket.send(UnsafeRawBufferPointer(rebasing: all[outSent...]))
                }
            } catch {
                return false
            }
            switch result {
            case .processed(let n): outSent += n
            case .wouldBlock:
                return true
            }
        }
        out.removeAll(keepingCapacity: true)
        outSent = 0
        return true
    }

    var hasUnsentOutput: Bool { webSocket?.hasUnsentOutput(lines: out) ?? (outSent < out.count) }
}
