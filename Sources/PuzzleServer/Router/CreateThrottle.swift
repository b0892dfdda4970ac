/// Paces room creation per IP address (`creates_per_hour`): a token bucket
/// holding N rooms, refilled by one every 3600/N seconds, as uploads are
/// paced (`UploadThrottle`). Making a room costs the loop its layout, its
/// snapshot and its fsyncs, and holds memory until the room is closed, so
/// one address cannot fill the server's 1,000 rooms in a burst. Only a room
/// actually made is charged: a refused CREATE (a name taken, no such
/// picture) cost the server almost nothing. The charge is made when the
/// room is begun (its files are written off the loop), and given back if
/// the disk refuses them.
struct CreateThrottle {
    /// 0 turns the pace off.
    let perHour: Int
    /// Addresses that created lately; one whose allowance is whole again is
    /// forgotten, so the table only holds recent creators.
    private var buckets: [String: TokenBucket] = [:]

    init(perHour: Int) {
        self.perHour = perHour
    }

    /// nil when `host` may make a room now; otherwise the milliseconds until it may.
    func wait(for host: String, now: Int64) -> Int64? {
        guard perHour > 0, let bucket = buckets[host] else { return nil }
        return bucket.wait(at: now)
    }

    /// Charges `host` for a room it made.
    mutating func charge(_ host: String, now: Int64) {
        guard perHour > 0 else { return }
        buckets[host, default: TokenBucket(capacity: Double(perHour), perSecond: Double(perHour) / 3600, now: now)].spend(at: now)
    }

    /// Gives `host` back the room it was charged for when the room could not
    /// be made after all (its files were refused by the disk).
    mutating func refund(_ host: String, now: Int64) {
        guard perHour > 0 else { return }
        buckets[host]?.refund(at: now)
    }

    /// Forgets every address whose allowance has refilled completely.
    mutating func forgetRecovered(now: Int64) {
        guard !buckets.isEmpty else { return }
        buckets = buckets.filter { !$0.value.isFull(at: now) }
    }
}
