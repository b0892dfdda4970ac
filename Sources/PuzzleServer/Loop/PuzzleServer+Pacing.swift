import PuzzleProtocol

/// Requests that must wait their turn (chat over its rate, password checks
/// over their allowance) are paced, IRC-style, instead of refused: the
/// connection stops being read until the turn comes, and the request that had
/// to wait is handled first when it does. Nothing is lost or reordered, and a
/// flooding client's backlog stays in its own socket buffer (TCP pushes back
/// on it), costing the loop and every other room nothing. The pause itself is
/// a stage of the connection's life (`pause`, `resumePaused`).
extension PuzzleServer {
    /// A new connection's drag allowance: `drag_rate_limit` drags and keeps
    /// a second, bursts of up to one second's worth.
    func newDragBucket() -> TokenBucket {
        TokenBucket(capacity: Double(max(config.dragRateLimit, 1)), perSecond: Double(config.dragRateLimit), now: now)
    }

    /// A new connection's chat allowance: `chat_burst` lines at once, then
    /// `chat_rate_limit` a second.
    func newChatBucket() -> TokenBucket {
        TokenBucket(capacity: Double(config.chatBurst), perSecond: Double(config.chatRateLimit), now: now)
    }

    /// Whether a drag or keep may go now (`drag_rate_limit` 0: always);
    /// one that may not is refused (`RATE_LIMITED`), not paced.
    func takeDragToken(_ conn: Connection) -> Bool {
        guard config.dragRateLimit > 0 else { return true }
        return conn.dragBucket.take(at: now) == nil
    }

    /// Takes a chat token and returns nil when a line may go now
    /// (`chat_rate_limit` 0: always); otherwise returns the milliseconds
    /// until one may, for which the connection pauses.
    func takeChatToken(_ conn: Connection) -> Int64? {
        guard config.chatRateLimit > 0 else { return nil }
        return conn.chatBucket.take(at: now)
    }
}
