import PuzzleSystem

/// The relay logic both `IOLoopComparison` servers share, so that they differ
/// only in how readiness reaches them: every complete line any member sends
/// is appended to one broadcast buffer, and `publish()` queues that buffer,
/// encoded once, behind every member's output.
///
/// Not thread-safe: the owning loop (one thread, or one serial queue) is the
/// only caller.
final class IOLoopRoom {
    /// One member's connection state.
    struct Member {
        let socket: Socket
        /// Bytes after the last line feed seen, waiting for the rest of their line.
        var partial: [UInt8] = []
        /// Broadcast chunks not yet fully sent; `sent` bytes of the first are out.
        var chunks: [[UInt8]] = []
        var sent = 0
        var open = true
        var hasOutput: Bool { !chunks.isEmpty }
    }

    private(set) var members: [Member] = []
    /// Complete lines received since the last `publish()`.
    private var broadcast: [UInt8] = []
    /// Reused receive buffer, large enough to drain a loopback socket in one call.
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Lines relayed so far (each counted once, not once per member).
    private(set) var linesRelayed = 0

    deinit { readBuffer.deallocate() }

    /// Adds an accepted connection; returns its member index.
    func add(_ socket: Socket) -> Int {
        try? socket.setNoDelay()
        members.append(Member(socket: socket))
        return members.count - 1
    }

    /// What one `read(member:)` call found.
    enum ReadOutcome {
        case data, wouldBlock, closed
    }

    /// One receive on `member`'s socket; complete lines go to the broadcast buffer.
    func read(member index: Int) -> ReadOutcome {
        guard members[index].open else { return .closed }
        let result: IOResult
        do {
            result = try members[index].socket.receive(into: readBuffer)
        } catch {
            return .closed
        }
        switch result {
        case .wouldBlock:
            return .wouldBlock
        case .processed(0):
            return .closed
        case .processed(let n):
            absorb(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]), member: index)
            return .data
        }
    }

    /// Moves the complete lines of `bytes` (with the member's earlier partial
    /// line in front) to the broadcast buffer; keeps the tail as the new partial.
    private func absorb(_ bytes: UnsafeRawBufferPointer, member index: Int) {
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else {
            members[index].partial.append(contentsOf: bytes)
            return
        }
        let complete = bytes[...lastNewline]
        var lines = 0
        for byte in complete where byte == UInt8(ascii: "\n") { lines += 1 }
        linesRelayed += lines
        if !members[index].partial.isEmpty {
            broadcast.append(contentsOf: members[index].partial)
            members[index].partial.removeAll(keepingCapacity: true)
        }
        broadcast.append(contentsOf: UnsafeRawBufferPointer(rebasing: complete))
        if lastNewline + 1 < bytes.count {
            members[index].partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(lastNewline + 1)...]))
        }
    }

    /// Queues the broadcast buffer (one shared array) behind every open member's
    /// output. Returns false when there was nothing to publish.
    @discardableResult
    func publish() -> Bool {
        guard !broadcast.isEmpty else { return false }
        let chunk = broadcast
        broadcast = []
        broadcast.reserveCapacity(chunk.count)
        for i in members.indices where members[i].open {
            members[i].chunks.append(chunk)
        }
        return true
    }

    /// What one `flush(member:)` left behind.
    enum FlushOutcome {
        /// Everything queued is sent.
        case drained
        /// The socket took what it could; wait for it to become writable.
        case backedUp
        case closed
    }

    /// One gathered send of the member's queued chunks.
    func flush(member index: Int) -> FlushOutcome {
        guard members[index].open else { return .closed }
        guard members[index].hasOutput else { return .drained }
        let result: IOResult
        do {
            result = try members[index].socket.send(members[index].chunks, firstBufferOffset: members[index].sent)
        } catch {
            return .closed
        }
        guard case .processed(var n) = result else { return .backedUp }
        while n > 0, let first = members[index].chunks.first {
            let left = first.count - members[index].sent
            if n >= left {
                n -= left
                members[index].chunks.removeFirst()
                members[index].sent = 0
            } else {
                members[index].sent += n
                n = 0
            }
        }
        return members[index].hasOutput ? .backedUp : .drained
    }

    /// Marks the member gone and drops its output; the caller owns closing the socket.
    func markClosed(member index: Int) {
        members[index].open = false
        members[index].chunks = []
    }
}
