import PuzzleSystem
import PuzzleWeb

/// One connection's bounded queue of bytes to send, written with one gathered
/// send per flush.
///
/// Slices of shared chunks are queued without copying. When a reader falls
/// behind (over the soft limit), its drag lines are coalesced instead of queued:
/// only the latest drag per piece is kept, and it goes out once the queue drains.
struct OutputQueue {
    private(set) var slices: [OutputSlice] = []
    private var head = 0
    /// Bytes of `slices[head]` already sent.
    private var sentOffset = 0
    private(set) var queuedBytes = 0
    /// Latest drag line per piece, held back while the reader is slow.
    private(set) var coalescedDrags: [Int: [UInt8]] = [:]
    /// Drag lines dropped (superseded by a newer drag or a later event) since
    /// the server last collected this count.
    var coalescedCount = 0
    /// Set once a connection speaks WebSocket: lines are queued as they are
    /// (shared with the other members' queues) and framed, one text message
    /// per line, when they are flushed.
    var framesLines = false {
        didSet { framedEnd = slices.count }
    }
    /// While `framesLines`: `slices[head..<framedEnd]` are frames, ready for
    /// the wire; the slices after them are lines still to frame.
    private var framedEnd = 0
    /// The start of a line whose end is not queued yet (never, in practice:
    /// every queued piece ends with its line's LF).
    private var carry: [UInt8] = []

    var isEmpty: Bool { queuedBytes == 0 && coalescedDrags.isEmpty }

    mutating func append(_ chunk: ByteChunk, from start: Int, to end: Int) {
        guard end > start else { return }
        // Contiguous bytes of the same chunk extend the last slice: consecutive
        // replies and broadcasts stay one iovec.
        // (Never a slice that is already framed.)
        if head < slices.count, slices.count > framedEnd || !framesLines,
           slices[slices.count - 1].chunk === chunk, slices[slices.count - 1].end == start {
            slices[slices.count - 1].end = end
        } else {
            slices.append(OutputSlice(chunk: chunk, start: start, end: end))
        }
        queuedBytes += end - start
    }

    mutating func append(bytes: [UInt8]) {
        let chunk = ByteChunk(capacity: bytes.count)
        chunk.append(bytes)
        append(chunk, from: 0, to: bytes.count)
    }

    /// Queues bytes that go out exactly as they are after everything queued
    /// so far: an HTTP response, or a WebSocket control frame (the lines
    /// before it are framed first, so it cannot land inside one).
    mutating func appendWire(bytes: [UInt8]) {
        frameLines()
        append(bytes: bytes)
        if framesLines { framedEnd = slices.count }
    }

    /// Frames the queued lines, one text frame per line, into one new slice.
    mutating func frameLines() {
        guard framesLines, framedEnd < slices.count else { return }
        var raw = carry
        for s in slices[framedEnd...] { raw.append(contentsOf: s.chunk.bytes(s.start, s.end)) }
        queuedBytes -= raw.count - carry.count
        slices.removeSubrange(framedEnd...)
        var framed: [UInt8] = []
        framed.reserveCapacity(raw.count + raw.count / 8 + 16)
        var lineStart = 0
        for i in raw.indices where raw[i] == UInt8(ascii: "\n") {
            WebSocketFrame.appendHeader(fin: true, opcode: .text, length: i - lineStart, to: &framed)
            framed.append(contentsOf: raw[lineStart..<i])
            lineStart = i + 1
        }
        carry = Array(raw[lineStart...])
        if !framed.isEmpty { append(bytes: framed) }
        framedEnd = slices.count
    }

    /// Keeps only the newest drag line for `piece`.
    mutating func coalesceDrag(piece: Int, line: UnsafeRawBufferPointer) {
        if coalescedDrags.updateValue(Array(line), forKey: piece) != nil { coalescedCount += 1 }
    }

    /// Forgets a held-back drag that a later event about the same piece made stale.
    mutating func dropCoalescedDrag(piece: Int) {
        if !coalescedDrags.isEmpty, coalescedDrags.removeValue(forKey: piece) != nil { coalescedCount += 1 }
    }

    /// Moves held-back drags into the queue (in piece order, for determinism).
    mutating func releaseCoalescedDrags() {
        guard !coalescedDrags.isEmpty else { return }
        var bytes: [UInt8] = []
        for piece in coalescedDrags.keys.sorted() { bytes += coalescedDrags[piece]! }
        coalescedDrags.removeAll()
        append(bytes: bytes)
    }

    /// Sends as much as the socket takes now with one gathered send.
    /// Returns the bytes sent, or nil when the socket would block.
    mutating func flush(to socket: Socket) throws(Errno) -> Int? {
        frameLines()
        guard queuedBytes > 0 else { return 0 }
        let end = min(slices.count, head + Socket.maxBuffersPerSend)
        let result = try sendSlices(socket, slices[head..<end])
        guard case .processed(let n) = result else { return nil }
        consume(n)
        return n
    }

    private func sendSlices(_ socket: Socket, _ batch: ArraySlice<OutputSlice>) throws(Errno) -> IOResult {
        // Pointers straight into the chunks: no copies, whatever the slicing.
        try withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: batch.count) { buffers throws(Errno) in
            var i = 0
            for s in batch {
                let start = s.start + (i == 0 ? sentOffset : 0)
                buffers[i] = s.chunk.bytes(start, s.end)
                i += 1
            }
            return try socket.send(buffers: UnsafeBufferPointer(buffers))
        }
    }

    private mutating func consume(_ n: Int) {
        var left = n
        queuedBytes -= n
        while left > 0 && head < slices.count {
            let remaining = slices[head].count - sentOffset
            if left >= remaining {
                left -= remaining
                head += 1
                sentOffset = 0
            } else {
                sentOffset += left
                left = 0
            }
        }
        if head == slices.count {
            slices.removeAll(keepingCapacity: slices.capacity <= 64)
            framedEnd = 0
            head = 0
        } else if head > 64 {
            slices.removeFirst(head)
            framedEnd = max(0, framedEnd - head)
            head = 0
        }
    }
}
