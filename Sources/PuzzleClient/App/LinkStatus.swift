/// The link to the server as the player sees it: up or down, when to try again (0.25 s
/// doubling to 5 s; a link that stayed up a while is retried at once), the banner while it is
/// down, when the status line's clock stopped, and when to ping. Pure: times are passed in;
/// the driver makes the connections it asks for.
struct LinkStatus: Sendable {
    /// Whether a connection is up.
    var up = false
    /// When to try connecting next, while down.
    var reconnectAt: Int64 = 0
    /// How long the next wait after a failure is.
    var reconnectDelay: Int64 = 250
    /// Connection attempts since the last time the room was joined.
    var attempts = 0
    /// The banner while down.
    var notice: String?
    /// When the link dropped (nil while joined): the status line's clock stops there.
    var clockStoppedAt: Int64?
    /// When the current link's join succeeded.
    var upSince: Int64?
    /// The last reason a connection failed, told once however many attempts repeat it.
    var lastFailure: String?
    /// When the next PING goes out, while up.
    var nextPing: Int64 = 0

    /// How long a link must stay up for its loss to be retried without waiting.
    static let stableLink: Int64 = 10_000
    /// Time between PINGs (the round trip on the status line).
    static let pingInterval: Int64 = 2000

    /// A connection attempt succeeded.
    mutating func connected(now: Int64) {
        attempts += 1
        up = true
        nextPing = now + 500
    }

    /// A connection attempt failed: the reason to tell, if it is new.
    mutating func connectFailed(_ why: String, now: Int64) -> String? {
        attempts += 1
        return scheduleReconnect(why, now: now)
    }

    /// The link went down (the session has told why).
    mutating func lost(_ why: String, now: Int64) {
        up = false
        lastFailure = why
        if clockStoppedAt == nil { clockStoppedAt = now }
        // A link that stayed up a while is retried at once; one that keeps
        // dropping right after the join backs off (and floods the messages less).
        if let since = upSince, now - since >= Self.stableLink { reconnectDelay = 250 }
        upSince = nil
        _ = scheduleReconnect(why, now: now)
    }

    /// The room is joined (or being picked): the link is good.
    mutating func joined(now: Int64) {
        notice = nil
        attempts = 0
        lastFailure = nil
        clockStoppedAt = nil
        if upSince == nil { upSince = now }
    }

    /// Sets the next attempt and the banner; returns `why` if it was not the last reason told.
    private mutating func scheduleReconnect(_ why: String, now: Int64) -> String? {
        reconnectAt = now + reconnectDelay
        // The banner stays short enough for a narrow view; the reason goes to the messages.
        notice = "connection lost: reconnecting, attempt \(attempts + 1) in \(PlayerText.seconds(reconnectDelay)) s"
        reconnectDelay = min(5000, reconnectDelay * 2)
        guard why != lastFailure else { return nil }
        lastFailure = why
        return why
    }
}
