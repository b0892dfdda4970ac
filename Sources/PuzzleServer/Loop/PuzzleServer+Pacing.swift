import PuzzleProtocol

/// Requests that must wait their turn (chat over its rate, password checks
/// over their allowance) are paced, IRC-style, instead of refused: the
/// connection stops being read until the turn comes, and the request that had
/// to wait is handled first when it does. Nothing is lost or reordered, and a
/// flooding client's backlog stays in its own socket buffer (TCP pushes back
/// on it), costing the loop and every other room nothing. The pause itself is
/// a stage of the connection's life (`pause`, `resumePaused`).
extension PuzzleServer {
    /// Chat token bucket: `chat_rate_limit` lines a second after a burst of
    /// `chat_burst`. Takes a token and returns nil when a line may go now;
    /// otherwise returns the milliseconds until one may.
    func takeChatToken(_ conn: Connection) -> Int64? {
        let rate = Double(config.chatRateLimit)
        guard rate > 0 else { return nil }
        let elapsed = Double(now - conn.chatRefilledAt) / 1000
        conn.chatRefilledAt = now
        conn.chatTokens = min(Double(config.chatBurst), conn.chatTokens + elapsed * rate)
        // The tolerance keeps float rounding from costing an extra 1 ms wake.
        if conn.chatTokens >= 1 - 1e-9 {
            conn.chatTokens = max(0, conn.chatTokens - 1)
            return nil
        }
        return max(1, Int64(((1 - conn.chatTokens) / rate * 1000).rounded(.up)))
    }
}
