/// Counters of one load-test run. `total` counts cover the whole run
/// (warm-up and wind-down included) and must add up; `window` counts cover
/// only the measured seconds and give the rates.
struct LoadCounters: Equatable, Sendable {
    var dragsSent = 0
    var dragsOK = 0
    /// Drags answered with an ERR (NOT_HOLDER after a solve, RATE_LIMITED, ...).
    var dragsRefused = 0
    var grabsSent = 0
    var grabsOK = 0
    /// Grabs refused because another player held the piece (expected).
    var grabsHeld = 0
    /// Grabs refused because the puzzle was solved (expected, then NEXT).
    var grabsSolved = 0
    var dropsSent = 0
    var dropsOK = 0
    /// Requests refused with RATE_LIMITED (a running server's drag limit).
    var rateLimited = 0
    /// Holds lost to a solve by someone else (NOT_HOLDER on drag or drop).
    var lostHolds = 0
    /// `dragged` events received by members other than the dragger.
    var deliveries = 0
    /// Deliveries the server should have made: members - 1 per accepted drag.
    var expectedDeliveries = 0
    /// Sequenced event lines (every event but drags and chat) received by
    /// bots: with `--play parts` a cycle has a `merged` line or so more than
    /// with pieces, which the server relays beside the drags.
    var eventLines = 0
    /// ERR replies nobody expected.
    var errors = 0
    var nextSent = 0
    var nextOK = 0
    /// `merged` events applied to the rooms' mirrors (each once per room).
    var merges = 0
    /// `placed` events that put a part (two pieces or more) into the board,
    /// and the pieces those parts held.
    var partsCarriedIn = 0
    var piecesCarriedIn = 0
    /// The most pieces one part has had, over every room.
    var largestPart = 0
    /// Paced slots skipped because the bot could not drag (no free piece, or
    /// waiting for the next puzzle): no drag was owed to the server then.
    var skippedSlots = 0
}

/// Problems that make the run fail its end checks.
struct LoadFailures: Equatable, Sendable {
    var disconnects = 0
    /// Sequenced events not exactly one after the last one seen.
    var eventGaps = 0
    /// Events or replies the bot could not parse or apply to its mirror.
    var mirrorErrors = 0
    /// Replies that matched no request.
    var unexpectedReplies = 0
    var messages: [String] = []

    mutating func note(_ message: String) {
        if messages.count < 20 { messages.append(message) }
    }
}
