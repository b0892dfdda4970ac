import PuzzleProtocol

/// How fast clients may go: drags and keeps per connection (refused past
/// the limit, `RATE_LIMITED`), chat lines per connection and room-password
/// checks per address (paced: past the limit the connection's requests wait,
/// IRC-style, see `PuzzleServer.pause`). Every limit is a `TokenBucket`; a
/// session carries its own two (`PlayerSession`); the password throttle
/// (`RoomDoor.passwords`) keeps one per address.
///
/// Pacing instead of refusing: the connection stops being read until its
/// turn comes, and the request that had to wait is handled first when it
/// does. Nothing is lost or reordered, and a flooding client's backlog stays
/// in its own socket buffer (TCP pushes back on it), costing the loop and
/// every other room nothing.
struct Pacing {
    /// Drags and keeps a second per connection; 0: no limit.
    let dragRateLimit: Int
    /// Chat lines a connection may send at once, then `chatRateLimit` a second (0: no limit).
    let chatBurst: Int
    let chatRateLimit: Int

    init(config: ServerConfig) {
        dragRateLimit = config.dragRateLimit
        chatBurst = config.chatBurst
        chatRateLimit = config.chatRateLimit
    }

    /// A new connection's drag allowance: bursts of up to one second's worth.
    func newDragBucket(now: Int64) -> TokenBucket {
        TokenBucket(capacity: Double(max(dragRateLimit, 1)), perSecond: Double(dragRateLimit), now: now)
    }

    /// A new connection's chat allowance.
    func newChatBucket(now: Int64) -> TokenBucket {
        TokenBucket(capacity: Double(chatBurst), perSecond: Double(chatRateLimit), now: now)
    }

    /// Whether a drag or keep may go now; one that may not is refused.
    func takeDrag(from bucket: inout TokenBucket, now: Int64) -> Bool {
        guard dragRateLimit > 0 else { return true }
        return bucket.take(at: now) == nil
    }

    /// nil when a chat line may go now (its token taken); otherwise the
    /// milliseconds until one may, for which the connection pauses.
    func takeChat(from bucket: inout TokenBucket, now: Int64) -> Int64? {
        guard chatRateLimit > 0 else { return nil }
        return bucket.take(at: now)
    }
}
