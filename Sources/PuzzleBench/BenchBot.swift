import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// One request a bot has sent and not yet had answered. Replies come back in
/// order, so the bot keeps these in a FIFO and matches each reply to the head.
struct PendingRequest {
    enum Kind: UInt8 { case hello, join, grab, drag, drop, release, next, digest }
    var kind: Kind
    var piece: Int32
    /// Monotonic ns the request was meant to go out (drags: its paced slot).
    var intended: UInt64
}

/// One bot player: its connection, what it has asked and not been answered,
/// its mirror of the room, and where it is in its grab-drag-drop cycle.
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
    var connected = true
    var phase: Phase = .joining
    var player = -1

    // Output not yet written to the socket.
    var out: [UInt8] = []
    var outSent = 0
    var queuedForFlush = false
    var wantsWritable = false

    /// Bytes of an incomplete line carried to the next read.
    var carry: [UInt8] = []
    /// `S` lines (LF-terminated) of the snapshot being received with JOIN.
    var stateLines: [UInt8] = []

    // In-flight requests, a ring buffer (head..<tail, grows when full).
    private var ring = [PendingRequest](repeating: PendingRequest(kind: .hello, piece: 0, intended: 0), count: 16)
    private var head = 0
    private(set) var inFlight = 0

    /// The room as this bot has seen it: the JOIN snapshot plus every sequenced event.
    var mirror: RoomState?
    var lastSeq: UInt64 = 0

    // The current cycle: piece, path and when each drag step was meant to go.
    var piece = -1
    var step = 0
    var pathX: [Int32]
    var pathY: [Int32]
    var pathSent: [UInt64]
    // The previous cycle's path, to time drags that arrive after the bot moved on.
    var previousPiece = -1
    var previousX: [Int32]
    var previousY: [Int32]
    var previousSent: [UInt64]
    /// Paced slots that came while a GRAB was in flight: owed drags, sent as
    /// soon as the grab succeeds, each timed from its own slot.
    var owed: [UInt64] = []
    var owedHead = 0
    /// Consecutive refused grabs (HELD), to back off to another piece.
    var refusedInARow = 0
    /// Listed for a retry because no piece was free (`--rate max`).
    var listedIdle = false
    /// The DIGEST check has been answered.
    var checked = false

    init(index: Int, room: Int, socket: Socket, steps: Int) {
        self.index = index
        self.room = room
        self.socket = socket
        pathX = [Int32](repeating: 0, count: steps)
        pathY = [Int32](repeating: 0, count: steps)
        pathSent = [UInt64](repeating: 0, count: steps)
        previousX = pathX
        previousY = pathY
        previousSent = pathSent
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

    // MARK: - Paths

    /// Starts a cycle on `piece`, moving the previous path aside.
    func beginPath(piece: Int, from start: Point, to end: Point) {
        swap(&pathX, &previousX)
        swap(&pathY, &previousY)
        swap(&pathSent, &previousSent)
        previousPiece = self.piece
        self.piece = piece
        step = 0
        let k = pathX.count
        for i in 0..<k {
            pathX[i] = Int32(start.x + (end.x - start.x) * (i + 1) / k)
            pathY[i] = Int32(start.y + (end.y - start.y) * (i + 1) / k)
            pathSent[i] = 0
        }
    }

    /// The intended send time of this bot's drag of `piece` to (x, y), if it
    /// is one of its current or previous path's steps already sent.
    @inline(__always)
    func intendedTime(piece: Int, x: Int, y: Int) -> UInt64? {
        let x = Int32(truncatingIfNeeded: x), y = Int32(truncatingIfNeeded: y)
        if piece == self.piece {
            for i in 0..<pathX.count where pathX[i] == x && pathY[i] == y && pathSent[i] != 0 { return pathSent[i] }
        }
        if piece == previousPiece {
            for i in 0..<previousX.count where previousX[i] == x && previousY[i] == y && previousSent[i] != 0 { return previousSent[i] }
        }
        return nil
    }

    // MARK: - Output

    func send(_ text: StaticString) {
        out.append(ascii: text)
    }

    func sendLine(_ text: String) {
        out.append(text: text)
        out.append(UInt8(ascii: "\n"))
    }

    /// Writes as much queued output as the socket takes. Returns false when
    /// the connection failed.
    func flush() -> Bool {
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

    var hasUnsentOutput: Bool { outSent < out.count }
}
