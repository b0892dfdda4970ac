import PuzzleProtocol

/// What a load test counts, shared by its parts: the whole-run and window
/// counters, the failures its end checks report, and the reply and broadcast
/// latencies. Every part records here; the report reads it once at the end.
final class LoadTally {
    let clock: RunClock
    @exclusivity(unchecked) var total = LoadCounters()
    @exclusivity(unchecked) var window = LoadCounters()
    @exclusivity(unchecked) var failures = LoadFailures()
    /// Bots whose snapshot or event stream differs from their room's reference.
    @exclusivity(unchecked) var viewMismatches = 0
    /// Reply latency (µs) of each drag answered OK, timed from its paced slot.
    @exclusivity(unchecked) var replyLatency = LatencyHistogram()
    /// Broadcast latency (µs) of each delivered drag, timed from the sender's slot.
    @exclusivity(unchecked) var broadcastLatency = LatencyHistogram()

    init(clock: RunClock) { self.clock = clock }

    /// Keeps `message` among the run's notes (the first twenty).
    func note(_ message: String) { failures.note(message) }

    /// A line or reply the bench could not parse or apply: an end-check failure.
    func mirrorError(_ message: String) {
        failures.mirrorErrors += 1
        failures.note(message)
    }

    /// An event line `bot` could not parse, or got before it had joined.
    func badEvent(bot: Int, _ line: LineScanner) {
        mirrorError("bot\(bot): bad event '\(line.string.prefix(80))'")
    }

    /// An ERR reply nobody expected.
    func unexpected(bot: Int, _ line: LineScanner) {
        total.errors += 1
        if clock.inWindow(clock.now) { window.errors += 1 }
        failures.note("bot\(bot): \(line.string.prefix(100))")
    }

    /// `n` paced slots passed with no drag owed to the server.
    func skip(_ n: Int) {
        guard n > 0 else { return }
        total.skippedSlots += n
        if clock.inWindow(clock.now) { window.skippedSlots += n }
    }

    /// "measuring 4.0 s  drags/s 91,200  deliveries/s 9,020,000  p99 broadcast 2,100 us".
    var progressLine: String {
        let now = clock.now
        let elapsed = Double(now - clock.startedAt) / 1e9
        let measuring = now >= clock.windowStart
        let span = measuring ? Double(min(now, clock.windowEnd) - clock.windowStart) / 1e9 : elapsed
        let drags = measuring ? window.dragsOK : total.dragsOK
        let deliveries = measuring ? window.deliveries : total.deliveries
        let p99 = broadcastLatency.value(atQuantile: 0.99)
        return "\(measuring ? "measuring" : "warm-up  ") \(fmt(elapsed)) s  drags/s \(group(Double(drags) / max(span, 0.001)))  deliveries/s \(group(Double(deliveries) / max(span, 0.001)))  p99 broadcast \(group(Double(p99))) us"
    }
}
