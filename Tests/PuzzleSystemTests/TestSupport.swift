import PuzzleSystem

/// Errors the tests raise themselves.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
}

/// Waits (via a private epoll) until `descriptor` reports readiness for
/// `interest`, or the deadline passes. Returns the event, if any.
func waitFor(_ descriptor: FileDescriptor, _ interest: Interest, timeoutMillis: Int32 = 10_000) throws -> ReadinessEvent? {
    let queue = try EpollQueue(maxEventsPerWait: 4)
    defer { queue.close() }
    try queue.register(descriptor, interest: interest, token: 1)
    let deadline = MonotonicClock.nowMilliseconds + Int64(timeoutMillis)
    while true {
        let remaining = Int32(clamping: max(0, deadline - MonotonicClock.nowMilliseconds))
        if let event = try queue.wait(timeoutMillis: remaining).first { return event }
        if remaining == 0 { return nil }
    }
}

/// Reads from `socket` until `count` bytes arrived, EOF, or the deadline.
func receive(_ socket: Socket, count: Int, timeoutMillis: Int64 = 10_000) throws -> [UInt8] {
    let deadline = MonotonicClock.nowMilliseconds + timeoutMillis
    var bytes: [UInt8] = []
    while bytes.count < count {
        switch try socket.receive(appendingTo: &bytes, maxBytes: count - bytes.count) {
        case .processed(0):
            return bytes
        case .processed:
            continue
        case .wouldBlock:
            let remaining = deadline - MonotonicClock.nowMilliseconds
            guard remaining > 0 else { return bytes }
            _ = try waitFor(socket.descriptor, .readable, timeoutMillis: Int32(clamping: remaining))
        }
    }
    return bytes
}

/// Sends all of `bytes`, waiting for writability when the buffer is full.
func sendAll(_ socket: Socket, _ bytes: [UInt8], timeoutMillis: Int64 = 10_000) throws {
    let deadline = MonotonicClock.nowMilliseconds + timeoutMillis
    var offset = 0
    while offset < bytes.count {
        switch try socket.send([bytes], firstBufferOffset: offset) {
        case .processed(let count):
            offset += count
        case .wouldBlock:
            let remaining = deadline - MonotonicClock.nowMilliseconds
            guard remaining > 0 else { throw TestFailure(description: "send timed out") }
            _ = try waitFor(socket.descriptor, .writable, timeoutMillis: Int32(clamping: remaining))
        }
    }
}

/// Runs `body` with a fresh socketpair and closes both ends afterwards.
func withPair(_ body: (Socket, Socket) throws -> Void) throws {
    let (a, b) = try Socket.pair()
    defer {
        try? a.close()
        try? b.close()
    }
    try body(a, b)
}
