import PuzzleSystem

/// Ending a connection after its goodbye (QUIT, BYE, HTTP) without a reset.
///
/// Closing a TCP socket with unread input makes the kernel send RST, and a
/// reset throws away whatever the peer has not received yet: the last replies,
/// the BYE. So once everything is flushed the server shuts down its sending
/// side (the peer reads every byte, then end of stream) and reads and
/// discards input until the peer's own end of stream, for a bounded time and
/// number of bytes; only then is the socket closed.
extension PuzzleServer {
    /// Called once a connection marked `closeAfterFlush` has nothing left to send.
    func finishClosing(_ conn: Connection) {
        guard conn.connectionIsOpen, conn.lingerUntil == nil else { return }
        // The peer already ended its side and everything it sent was read:
        // nothing unread can remain, so a plain close is orderly.
        if conn.readClosed { return close(conn, reason: conn.closeReason ?? "closed") }
        do {
            try conn.socket.shutdown(.write)
        } catch {
            return close(conn, reason: "\(conn.closeReason ?? "closed"); shutdown failed: \(error)")
        }
        conn.lingerUntil = now + Self.lingerMillis
        lingering[conn.token] = conn
        if conn.pausedUntil != nil {
            conn.pausedUntil = nil
            conn.deferred = nil
            pausedConnections[conn.token] = nil
        }
        conn.waitingForWritable = false
        updateInterest(conn)
        if shuttingDown {
            // The loop is about to end: take what has arrived, then close.
            drainLingering(conn)
            close(conn, reason: conn.closeReason ?? "closed")
        }
    }

    /// Reads and discards a lingering connection's input; closes it at the
    /// peer's end of stream, or when it sends more than the drain allows.
    func drainLingering(_ conn: Connection) {
        while conn.connectionIsOpen {
            let result: IOResult
            do {
                result = try readBuffer.withUnsafeMutableBytes { (buf) throws(Errno) -> IOResult in try conn.socket.receive(into: buf) }
            } catch {
                return close(conn, reason: "\(conn.closeReason ?? "closed"); read error while draining: \(error)")
            }
            switch result {
            case .wouldBlock:
                return
            case .processed(0):
                return close(conn, reason: conn.closeReason ?? "closed")
            case .processed(let n):
                conn.lingerBytes += n
                if conn.lingerBytes > Self.lingerMaxBytes {
                    return close(conn, reason: "\(conn.closeReason ?? "closed"); kept sending after the goodbye")
                }
            }
        }
    }

    /// Closes lingering connections whose peer never ended its side in time.
    func endLingering() {
        guard !lingering.isEmpty else { return }
        for conn in Array(lingering.values) {
            guard let until = conn.lingerUntil, now >= until else { continue }
            close(conn, reason: "\(conn.closeReason ?? "closed"); peer did not close within \(Self.lingerMillis) ms")
        }
    }
}
