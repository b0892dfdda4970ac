/// A token bucket: holds up to `capacity` tokens, starts full, and refills
/// continuously at `tokensPerMilli`. The one pacing rule behind drags and
/// keeps (per connection), chat lines (per connection) and wrong room
/// passwords (per address). Times are the server clock in milliseconds.
struct TokenBucket {
    let capacity: Double
    let tokensPerMilli: Double
    private var tokens: Double
    private var updatedAt: Int64

    /// Keeps float rounding from costing an extra 1 ms wake (a bucket that
    /// has refilled for exactly the computed wait holds 0.9999999...).
    private static let tolerance = 1e-9

    init(capacity: Double, tokensPerMilli: Double, now: Int64) {
        self.capacity = capacity
        self.tokensPerMilli = tokensPerMilli
        tokens = capacity
        updatedAt = now
    }

    /// `perSecond` tokens a second.
    init(capacity: Double, perSecond: Double, now: Int64) {
        self.init(capacity: capacity, tokensPerMilli: perSecond / 1000, now: now)
    }

    /// The tokens held at `now`.
    func available(at now: Int64) -> Double {
        min(capacity, tokens + Double(max(0, now - updatedAt)) * tokensPerMilli)
    }

    var isRefilling: Bool { tokensPerMilli > 0 }

    /// nil when a whole token is there at `now`; otherwise the milliseconds
    /// until there is one (at least 1).
    func wait(at now: Int64) -> Int64? {
        let held = available(at: now)
        if held >= 1 - Self.tolerance { return nil }
        guard isRefilling else { return .max }
        // Less a millionth of a millisecond, so that float noise (1.0000000000000009)
        // does not round a whole millisecond up.
        return max(1, Int64(((1 - held) / tokensPerMilli - 1e-6).rounded(.up)))
    }

    /// Takes a token if one is there (nil); otherwise takes nothing and
    /// returns the milliseconds until one is.
    mutating func take(at now: Int64) -> Int64? {
        if let wait = wait(at: now) { return wait }
        spend(at: now)
        return nil
    }

    /// Spends a token whether or not one is there (never below empty).
    mutating func spend(at now: Int64) {
        tokens = max(0, available(at: now) - 1)
        updatedAt = now
    }

    /// Gives a spent token back (never above full): what it paid for did not happen.
    mutating func refund(at now: Int64) {
        tokens = min(capacity, available(at: now) + 1)
        updatedAt = now
    }

    /// Whether the bucket has refilled completely by `now`.
    func isFull(at now: Int64) -> Bool { available(at: now) >= capacity }
}
