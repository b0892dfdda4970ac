import PuzzleSystem

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

    var isEmpty: Bool { queuedBytes == 0 && coalescedDrags.isEmpty }

    mutating func append(_ chunk: ByteChunk, from start: Int, to end: Int) {
        guard end > start else { return }
        // Contiguous bytes of the same chunk extend the last slice: consecutive
        // replies and broadcasts stay one iovec.
        if head < slices.count, slices[slices.count - 1].chunk === chunk, slices[slices.count - 1].end == start {
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
        } else if head > 64 {
            slices.removeFirst(head)
            head = 0
        }
    }
}
