import PuzzleSystem

/// The load test's time, shared by its parts: the loop's current instant
/// (read once per loop turn, not per line), the start of the run, and the
/// measured window that the rates and latencies cover.
final class RunClock {
    /// Monotonic ns at the start of the current loop turn.
    @exclusivity(unchecked) var now: UInt64 = 0
    @exclusivity(unchecked) var startedAt: UInt64 = 0
    @exclusivity(unchecked) var windowStart: UInt64 = .max
    @exclusivity(unchecked) var windowEnd: UInt64 = .max

    /// Reads the monotonic clock into `now`.
    func tick() { now = MonotonicClock.nowNanoseconds }

    /// Starts (or restarts) the run's clock at the current instant.
    func start() {
        tick()
        startedAt = now
    }

    /// Opens the measured window after `warmup` seconds from now, for `duration` seconds.
    func measure(warmup: Double, duration: Double) {
        windowStart = now + UInt64(warmup * 1e9)
        windowEnd = windowStart + UInt64(duration * 1e9)
    }

    /// Whether monotonic time `t` falls in the measured window.
    @inline(__always)
    func inWindow(_ t: UInt64) -> Bool { t >= windowStart && t < windowEnd }

    /// Milliseconds since the start, as the bots' room clock.
    var clockMillis: Int64 { Int64((now &- startedAt) / 1_000_000) }
}
