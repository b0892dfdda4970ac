/// Paces uploads per IP address (`uploads_per_hour`): a token bucket holding
/// N uploads, refilled by one every 3600/N seconds. An upload is charged when
/// it is accepted, whatever becomes of it (a refused or abandoned upload cost
/// the server as much reading), so aborting buys no extra ones.
struct UploadThrottle {
    /// 0 turns the pace off.
    let perHour: Int
    /// Addresses that uploaded lately; one whose allowance is whole again is
    /// forgotten, so the table only holds recent uploaders.
    private var buckets: [String: TokenBucket] = [:]

    init(perHour: Int) {
        self.perHour = perHour
    }

    /// nil when `host` may start an upload now (it is charged); otherwise the
    /// milliseconds until it may.
    mutating func take(for host: String, now: Int64) -> Int64? {
        guard perHour > 0 else { return nil }
        return buckets[host, default: TokenBucket(capacity: Double(perHour), perSecond: Double(perHour) / 3600, now: now)].take(at: now)
    }

    /// Forgets every address whose allowance has refilled completely.
    mutating func forgetRecovered(now: Int64) {
        guard !buckets.isEmpty else { return }
        buckets = buckets.filter { !$0.value.isFull(at: now) }
    }
}
