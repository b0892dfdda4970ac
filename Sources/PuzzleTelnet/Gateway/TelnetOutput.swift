import PuzzleSystem

/// What waits to be written to one telnet client, bounded: the driver draws a new frame
/// only once the last one is out, so a client that reads slowly sees fewer frames, not a
/// growing queue; one that stops reading is dropped (`isStuck`) long before `hardLimit`.
struct TelnetOutput {
    /// Queued bytes past which the client is dropped at once.
    let hardLimit: Int
    /// How long queued bytes may wait without any of them being taken.
    let stallMillis: Int64
    private var bytes: [UInt8] = []
    private var offset = 0
    /// When the socket last took bytes, or the queue last became non-empty.
    private var progressAt: Int64 = 0

    init(hardLimit: Int, stallMillis: Int64) {
        self.hardLimit = hardLimit
        self.stallMillis = stallMillis
    }

    /// Bytes not written yet.
    var pending: Int { bytes.count - offset }

    /// Queues `data` as telnet data (0xFF doubled).
    mutating func append(data: [UInt8], now: Int64) {
        if pending == 0 { progressAt = now }
        TelnetEncoder.append(data, to: &bytes)
    }

    /// Queues telnet commands as they are.
    mutating func append(commands: [UInt8], now: Int64) {
        if pending == 0 { progressAt = now }
        bytes += commands
    }

    /// Writes what the socket takes now.
    mutating func flush(to socket: Socket, now: Int64) throws(Errno) {
        while offset < bytes.count {
            let result = try bytes[offset...].withUnsafeBytes { b in
                Result { () throws(Errno) in try socket.send(b) }
            }.get()
            guard case .processed(let n) = result, n > 0 else { break }
            offset += n
            progressAt = now
        }
        if offset == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
            offset = 0
        }
    }

    /// Whether the client must be dropped: too much queued, or nothing taken for too long.
    func isStuck(now: Int64) -> Bool {
        pending > hardLimit || (pending > 0 && now - progressAt >= stallMillis)
    }

    /// When `isStuck` turns true if nothing is taken meanwhile, or nil with nothing queued.
    var stallDeadline: Int64? { pending > 0 ? progressAt + stallMillis : nil }
}
