import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Connections with bytes waiting to be flushed at the end of the loop turn,
/// and paced connections that began holding drags this turn (the loop sets
/// when those go out: `PuzzleServer.startPacedHolds`).
final class FlushList {
    var pending: [Connection] = []
    var startedHolding: [Connection] = []
}

/// One client connection: its socket, input framing, output queue, the room
/// whose broadcasts it is handed, and the player's session it carries.
final class Connection {
    let token: UInt64
    let socket: Socket
    /// The player's protocol session on this connection (who, which room,
    /// pacing, an upload): the request router's to decide on.
    let session: PlayerSession
    /// "host:port", for log lines.
    var peer: String { session.peer }
    /// The peer's IP address alone: what per-address limits count by.
    var host: String { session.host }
    var framer: LineFramer
    var out = OutputQueue()
    private let flushList: FlushList
    private let slowReaderRule: SlowReaderRule
    private var replyChunk: ByteChunk?
    private var recordScratch: [UInt8] = []

    /// The room whose broadcasts this connection is handed (set by the
    /// router's `enter` and `leave` effects, in their order).
    var memberOf: HostedRoom?
    /// How far into the room's current broadcast chunk this member has queued.
    var roomMark = 0
    var isQueuedForFlush = false

    var lastActivity: Int64
    /// When the queue went over the soft limit (nil while under it); set
    /// through `ConnectionTable.markOverSoft`.
    var overSoftSince: Int64?
    /// Since when the socket has taken no byte of the output still queued
    /// (nil: nothing is queued); `SlowReaderRule` judges HTTP clients by it.
    var stalledSince: Int64?
    /// Lines or HTTP, once the first bytes decide (`ConnectionTransport.classify`).
    var transport = ConnectionTransport.undecided
    /// The first bytes, while they do not decide the transport yet.
    var firstBytes: [UInt8] = []
    /// When the first of `firstBytes` arrived: an HTTP head's clock starts there.
    var firstByteAt: Int64 = 0
    /// Input is not read: pipelined HTTP requests wait for the output to
    /// drain (`WebSession.isHeldBack`, mirrored here for `updateInterest`).
    var readsHeldBack = false
    /// Input is not read, nor its lines handled: its output is over the soft
    /// limit, and a client pipelining requests is answered as fast as it
    /// reads the answers (issue 31), rather than cut as a slow reader for
    /// the answers it asked for. Goes when its output drains (`flush`).
    var linesWaitForOutput = false
    /// A browser connection's HTTP and WebSocket state (transport `web`).
    var web: WebSession?
    /// When the connection was accepted, then when bytes last arrived
    /// (what the WebSocket ping waits on).
    var lastReceived: Int64
    /// When the server last pinged this WebSocket.
    var lastPing: Int64 = 0
    /// Where the connection is in its life; changed only by the transitions
    /// in `ConnectionLifecycle`.
    var state: ConnectionState = .active
    /// The peer shut its sending side: what it sent is still answered, then
    /// the connection closes (set by `endInput`).
    var inputEnded = false
    /// Registered for writability because the socket buffer filled.
    var waitingForWritable = false
    /// `PACE`: milliseconds between two sendings of this member's held
    /// drags (0: drags are queued as they come).
    var dragPace: Int64 = 0
    /// `EVENTS off`: of its room's broadcast this member is sent chat and
    /// watchers' lines alone (it follows the room by SYNC).
    var eventsOff = false
    /// When the held drags of a paced member go out (nil: none held, or
    /// held as a slow reader's until its queue drains).
    var dragsDue: Int64?

    init(token: UInt64, socket: Socket, session: PlayerSession, maxLineLength: Int, slowReaderRule: SlowReaderRule,
         flushList: FlushList, now: Int64) {
        self.token = token
        self.socket = socket
        self.session = session
        self.framer = LineFramer(maxLineLength: maxLineLength)
        self.flushList = flushList
        self.slowReaderRule = slowReaderRule
        self.lastActivity = now
        self.lastReceived = now
    }

    var label: String { session.label }

    /// Queues a reply, encoded by the one reply codec straight into this
    /// turn's reply chunk (a reply per DRAG costs neither an allocation nor a copy).
    func send(_ reply: Reply) {
        sendLines { ReplyCodec.encode(reply, into: &$0) }
    }

    /// Queues a state line (`S help`, `S room`, `S who`, ...) through the one
    /// state-record codec (which writes arrays: these lines are not on the
    /// drag path, so they go through a buffer kept for the next one).
    func send(_ record: StateRecord) {
        recordScratch.removeAll(keepingCapacity: true)
        StateRecordCodec.encode(record, into: &recordScratch)
        send(bytes: recordScratch)
    }

    /// Queues bytes meant for this connection only (whole lines), after the
    /// room broadcasts it has not been handed yet, so their order is kept.
    func send(bytes: [UInt8]) {
        sendLines { $0.append(bytes) }
    }

    /// Queues the whole lines `write` appends to this turn's reply chunk.
    @inline(__always)
    private func sendLines(_ write: (inout ByteChunk) -> Void) {
        syncRoom()
        var chunk: ByteChunk
        if let c = replyChunk { chunk = c } else { chunk = ByteChunk(capacity: 256); replyChunk = chunk }
        let start = chunk.count
        write(&chunk)
        out.append(chunk, from: start, to: chunk.count)
        markDirty()
    }

    /// Starts a new reply chunk for the next turn (the old one stays referenced
    /// by the queue until sent).
    func endTurn() {
        replyChunk = nil
    }

    /// Queues the room's broadcast bytes this member has not had yet (up to
    /// byte `limit` of the turn's, when given): slices of the room's chunk,
    /// or for a WebSocket of its frames (built once for all its browsers). A
    /// slow member (`SlowReaderRule.coalescesDrags`) or a paced one (`PACE`)
    /// holds its drags instead (`HeldDrags`); one with its events off gets
    /// only the room's talk.
    func syncRoom(upTo limit: Int = .max) {
        guard let room = memberOf else { return }
        let end = min(limit, room.chunk.count)
        guard end > roomMark else { return }
        let frames = out.framesLines ? room.webSocketFrames : nil
        let queuedBefore = out.queuedBytes
        if eventsOff {
            for i in room.firstLine(after: roomMark)..<room.firstLine(after: end) where room.lines[i].isTalk {
                let start = i == 0 ? 0 : room.lines[i - 1].end
                if let frames {
                    out.appendFrames(frames.chunk, from: frames.start(ofLine: i), to: frames.ends[i])
                } else {
                    out.append(room.chunk, from: start, to: room.lines[i].end)
                }
            }
        } else if dragPace == 0 && !slowReaderRule.coalescesDrags(queuedBytes: out.queuedBytes, socketFull: waitingForWritable) {
            out.releaseHeldDrags()
            if let frames {
                // Marks fall between lines: the frames of the lines from the mark to `end`.
                out.appendFrames(frames.chunk, from: frames.start(ofLine: room.firstLine(after: roomMark)),
                                 to: frames.start(ofLine: room.firstLine(after: end)))
            } else {
                out.append(room.chunk, from: roomMark, to: end)
            }
        } else {
            let wasHolding = !out.heldDrags.isEmpty
            var i = room.firstLine(after: roomMark)
            var start = roomMark
            while i < room.lines.count && room.lines[i].end <= end {
                let line = room.lines[i]
                if line.isDrag {
                    out.heldDrags.hold(piece: Int(line.piece), chunk: room.chunk, start: start, end: line.end)
                } else {
                    if line.isRotation {
                        // A rotation says nothing of where the piece is: its held drag goes first.
                        var held: [UInt8] = []
                        out.heldDrags.take(piece: Int(line.piece), into: &held)
                        if !held.isEmpty { out.append(bytes: held) }
                    } else if line.piece >= 0 {
                        out.heldDrags.drop(piece: Int(line.piece))
                    }
                    if let frames {
                        out.appendFrames(frames.chunk, from: frames.start(ofLine: i), to: frames.ends[i])
                    } else {
                        out.append(room.chunk, from: start, to: line.end)
                    }
                }
                start = line.end
                i += 1
            }
            if dragPace > 0, !wasHolding, dragsDue == nil, !out.heldDrags.isEmpty { flushList.startedHolding.append(self) }
        }
        roomMark = end
        // A paced member whose turn brought only drags has nothing to send yet.
        if out.queuedBytes != queuedBefore { markDirty() }
    }

    /// Queues bytes that go out as they are (an HTTP response, a WebSocket
    /// control frame), after everything queued before them.
    func sendWire(_ bytes: [UInt8]) {
        syncRoom()
        out.appendWire(bytes: bytes)
        markDirty()
    }

    func markDirty() {
        if !isQueuedForFlush {
            isQueuedForFlush = true
            flushList.pending.append(self)
        }
    }
}
