/// The event loop's time: read once a turn (every deadline, lease and pace of
/// that turn is measured against the same instant), when the server started
/// (its uptime), and the once-a-second sweep's schedule (idle connections,
/// slow HTTP heads and quiet WebSockets, stale uploads, bounded rooms).
///
/// Not thread-safe: owned by the server's event loop.
struct LoopClock {
    /// How often the loop sweeps.
    static let sweepEveryMillis: Int64 = 1000

    /// This turn's time, in monotonic milliseconds.
    private(set) var now: Int64
    /// When the server started.
    let startedAt: Int64
    /// When the loop last swept (at first, when it started).
    private var lastSweep: Int64

    /// A clock started at `time` (monotonic milliseconds).
    init(startingAt time: Int64) {
        now = time
        startedAt = time
        lastSweep = time
    }

    /// A new turn (or a wait of the shutdown) at `time`.
    mutating func tick(at time: Int64) {
        now = time
    }

    /// Whole seconds since the server started.
    var uptimeSeconds: Int64 { (now - startedAt) / 1000 }

    /// When the next sweep is due: a deadline the loop's wait keeps.
    var nextSweep: Int64 { lastSweep + Self.sweepEveryMillis }

    /// Whether a sweep is due now; when it is, it counts as done (the next
    /// one is due a second on).
    mutating func takeSweep() -> Bool {
        guard now >= nextSweep else { return false }
        lastSweep = now
        return true
    }
}
