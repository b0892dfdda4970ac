#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC: for timeouts and durations; never jumps with wall time.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot).
    public static var nowNanoseconds: UInt64 {
        var time = timespec()
        // Cannot fail for CLOCK_MONOTONIC with a valid pointer.
        _ = Syscall.clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Milliseconds since the same fixed point as `nowNanoseconds`.
    public static var nowMilliseconds: Int64 {
        Int64(nowNanoseconds / 1_000_000)
    }
}
