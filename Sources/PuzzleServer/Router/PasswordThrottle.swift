/// Paces room-password guessing per IP address: a token bucket holding
/// `freeAttempts` wrong passwords, refilled by one every `retryMillis`.
///
/// The check is gated, not just the reply: a JOIN to a room with a password
/// waits for an allowance *before* its password is compared, so opening more
/// connections from the same address does not buy more guesses, and a wrong
/// password cannot be told from a right one by how fast the answer comes.
struct PasswordThrottle {
    let freeAttempts: Int
    /// 0 turns the throttle off.
    let retryMillis: Int64
    /// Addresses that got a password wrong recently. An address with a whole
    /// allowance is forgotten, so the table only holds recent guessers.
    private var buckets: [String: TokenBucket] = [:]

    init(freeAttempts: Int, retryMillis: Int) {
        self.freeAttempts = max(1, freeAttempts)
        self.retryMillis = Int64(retryMillis)
    }

    /// nil when a password from `host` may be checked now; otherwise the
    /// milliseconds until it may.
    func wait(for host: String, now: Int64) -> Int64? {
        guard retryMillis > 0 else { return nil }
        return buckets[host]?.wait(at: now)
    }

    /// Spends one attempt of `host`'s allowance on a wrong password.
    mutating func recordFailure(from host: String, now: Int64) {
        guard retryMillis > 0 else { return }
        buckets[host, default: TokenBucket(capacity: Double(freeAttempts), tokensPerMilli: 1 / Double(retryMillis), now: now)]
            .spend(at: now)
    }

    /// Forgets every address whose allowance has refilled completely.
    mutating func forgetRecovered(now: Int64) {
        guard !buckets.isEmpty else { return }
        buckets = buckets.filter { !$0.value.isFull(at: now) }
    }
}
