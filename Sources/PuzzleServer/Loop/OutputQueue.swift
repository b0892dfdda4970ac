import PuzzleSystem
import PuzzleWeb

/// One connection's bounded queue of bytes to send, written with one gathered
/// send per flush.
///
/// Slices of shared chunks are queued without copying. When a reader falls
/// behind (over the soft limit), or paces its drags (`PACE`), its drag lines
/// are held instead of queued (`HeldDrags`: only the latest per piece), and go
/// out once the queue drains or at the pace's next tick.
struct OutputQueue {
    private(set) var slices: [OutputSlice] = []
    private var head = 0
    /// Bytes of `slices[head]` already sent.
    private var sentOffset = 0
    private(set) var queuedBytes = 0
    /// Latest drag line per piece, held back while the reader is slow or paced.
    var heldDrags = HeldDrags()
    /// Set once a connection speaks WebSocket: lines queued through
    /// `append(_:from:to:)` are framed as they come (one text message per
    /// line) into `frameChunk`; a room's broadcast comes already framed and
    /// shared (`appendFrames`). Everything queued before is wire bytes (the
    /// `101` response).
    var framesLines = false
    /// This connection's own frames (its replies and per-connection lines),
    /// written as they are queued: emptied for reuse when the queue drains,
    /// replaced once large (older slices keep the old one alive until sent).
    private var frameChunk: ByteChunk?
    /// The start of a line whose end is not queued yet (never, in practice:
    /// every queued piece ends with its line's LF).
    private var carry: [UInt8] = []

    /// A frame chunk grown past this is replaced rather than grown on while
    /// the queue never drains (a reader that keeps a little behind).
    static let frameChunkLimit = 64 * 1024

    var isEmpty: Bool { queuedBytes == 0 && heldDrags.isEmpty }

    /// Queues whole lines, `chunk`'s bytes `start..<end`: as they are (a
    /// slice of the shared chunk), or for a WebSocket framed one message a line.
    mutating func append(_ chunk: ByteChunk, from start: Int, to end: Int) {
        guard end > start else { return }
        if framesLines { return frame(chunk.bytes(start, end)) }
        appendSlice(chunk, from: start, to: end)
    }

    /// Queues bytes that are ready for the wire (`chunk`'s `start..<end`):
    /// a room's broadcast frames, shared by its WebSocket members.
    mutating func appendFrames(_ chunk: ByteChunk, from start: Int, to end: Int) {
        guard end > start else { return }
        appendSlice(chunk, from: start, to: end)
    }

    private mutating func appendSlice(_ chunk: ByteChunk, from start: Int, to end: Int) {
        // Contiguous bytes of the same chunk extend the last slice: consecutive
        // replies and broadcasts stay one iovec.
        if head < slices.count, slices[slices.count - 1].chunk === chunk, slices[slices.count - 1].end == start {
            slices[slices.count - 1].end = end
        } else {
            slices.append(OutputSlice(chunk: chunk, start: start, end: end))
        }
        queuedBytes += end - start
    }

    /// Frames whole lines into this connection's frame chunk and queues the frames.
    private mutating func frame(_ lines: UnsafeRawBufferPointer) {
        let chunk: ByteChunk
        if let c = frameChunk, c.count < Self.frameChunkLimit {
            chunk = c
        } else {
            chunk = ByteChunk(capacity: 1024)
            frameChunk = chunk
        }
        let start = chunk.count
        if carry.isEmpty {
            let used = chunk.appendTextFrames(lines: lines)
            if used < lines.count { carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: lines[used...])) }
        } else {
            carry.append(contentsOf: lines)
            let used = carry.withUnsafeBytes { chunk.appendTextFrames(lines: $0) }
            carry.removeFirst(used)
        }
        appendSlice(chunk, from: start, to: chunk.count)
    }

    mutating func append(bytes: [UInt8]) {
        let chunk = ByteChunk(capacity: bytes.count)
        chunk.append(bytes)
        append(chunk, from: 0, to: bytes.count)
    }

    /// Queues bytes that go out exactly as they are after everything queued
    /// so far: an HTTP response, or a WebSocket control frame (lines are
    /// framed as they are queued, so it cannot land inside one).
    mutating func appendWire(bytes: [UInt8]) {
        let chunk = ByteChunk(capacity: bytes.count)
        chunk.append(bytes)
        appendSlice(chunk, from: 0, to: bytes.count)
    }

    /// Moves the held drags into the queue (in the order their pieces were first held).
    mutating func releaseHeldDrags() {
        guard !heldDrags.isEmpty else { return }
        var bytes: [UInt8] = []
        heldDrags.take(into: &bytes)
        append(bytes: bytes)
    }

    /// Sends as much as the socket takes now with one gathered send.
    /// Returns the bytes sent, or nil when the socket would block.
    mutating func flush(to socket: Socket) throws(Errno) -> Int? {
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
            head = 0
            // Every frame in it is sent: written over from the start.
            frameChunk?.removeAll()
        } else if head > 64 {
            slices.removeFirst(head)
            head = 0
        }
    }
}
