/// A room that moves faster than a screen can tell, followed by snapshots.
///
/// Each sequenced event a client follows is read, decoded, applied to its
/// mirror, worded for the message log: a few microseconds. A room of a
/// hundred bots makes tens of thousands a second, and the server's telnet
/// sessions, one per player and all in the server's process, would spend
/// its cores following them one by one (issue 30). Past `limit` sequenced
/// events a second (counted over half-second windows), the session stops
/// following events: it skips them unread, asks the server to stop sending
/// them (`EVENTS off`: chat still comes) and asks for the room (`SYNC`)
/// every `snapshotEvery` ms, and at once after a move of the player's own.
/// The snapshots' sequence numbers tell the room's pace; under half the
/// limit the flood is over (`EVENTS on`), and the first event then applied
/// finds the gap and the session syncs once more, as after any gap.
public struct EventFlood: Sendable {
    /// Sequenced events a second past which the room is followed by snapshots.
    public let limit: Int
    /// Milliseconds between two snapshots asked for while flooded.
    public let snapshotEvery: Int64
    /// The window events are counted over.
    static let window: Int64 = 500
    /// The shortest time over which snapshots' sequence numbers tell the pace.
    static let paceSpan: Int64 = 1000

    private var windowStart: Int64?
    private var windowCount = 0
    /// Whether the room is flooding now.
    public private(set) var isFlooded = false
    /// Events were skipped since the last snapshot: the mirror is behind the room.
    public internal(set) var isBehind = false
    /// When the last snapshot was asked for.
    private var lastAsked: Int64 = .min
    /// The server was asked to stop sending events (`EVENTS off`): the room's
    /// pace is read from the snapshots' sequence numbers.
    public internal(set) var eventsOff = false
    /// The last snapshot's sequence number and when it came, while events are off.
    private var lastSnapshot: (seq: UInt64, at: Int64)?

    public init(limit: Int, snapshotEvery: Int64) {
        self.limit = limit
        self.snapshotEvery = snapshotEvery
    }

    /// A sequenced event came at `now`; true when that starts a flood.
    mutating func counted(now: Int64) -> Bool {
        _ = advance(to: now)
        windowCount += 1
        guard !isFlooded, Int64(windowCount) * 1000 > Int64(limit) * Self.window else { return false }
        isFlooded = true
        return true
    }

    /// Time passed to `now`; true when that ended the flood (a window of
    /// fewer than half the limit's events, or a whole window without any).
    mutating func advance(to now: Int64) -> Bool {
        // With events off no events come to count: the snapshots tell (`snapshot`).
        guard !eventsOff else { return false }
        guard let start = windowStart, now - start < Self.window else {
            let quiet = windowStart.map { now - $0 >= 2 * Self.window } ?? true
                || Int64(windowCount) * 2000 <= Int64(limit) * Self.window
            windowStart = now
            windowCount = 0
            guard isFlooded, quiet else { return false }
            isFlooded = false
            return true
        }
        return false
    }

    /// A snapshot of the room at `seq` came at `now`; true when that ended
    /// the flood (with events off, the pace since the last snapshot under
    /// half the limit).
    mutating func snapshot(seq: UInt64, now: Int64) -> Bool {
        // With events off the room moves on unseen: the next snapshot is due all the same.
        isBehind = eventsOff
        guard eventsOff else {
            lastSnapshot = nil
            return false
        }
        guard let last = lastSnapshot, seq >= last.seq else {
            lastSnapshot = (seq, now)
            return false
        }
        // Judged over a second at least: two snapshots close together (one
        // after a move of the player's own) say little of a bursty room's pace.
        guard now - last.at >= Self.paceSpan else { return false }
        lastSnapshot = (seq, now)
        guard Int64(seq - last.seq) * 1000 * 2 <= Int64(limit) * (now - last.at) else { return false }
        isFlooded = false
        eventsOff = false
        isBehind = false
        windowStart = nil
        windowCount = 0
        return true
    }

    /// Events come again, unasked for: a new connection, another room.
    mutating func restart() {
        self = EventFlood(limit: limit, snapshotEvery: snapshotEvery)
    }

    /// When the next snapshot is due (nil: the mirror is not behind).
    public var nextSnapshot: Int64? {
        isBehind ? (lastAsked == .min ? Int64.min : lastAsked + snapshotEvery) : nil
    }

    /// Whether a snapshot is due at `now`.
    func snapshotDue(now: Int64) -> Bool {
        nextSnapshot.map { now >= $0 } ?? false
    }

    /// A snapshot was asked for at `now`.
    mutating func asked(now: Int64) {
        lastAsked = now
    }
}
