#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_REALTIME, for log timestamps only (it can jump; never time with it).
public enum WallClock {
    /// Milliseconds since the Unix epoch.
    public static var nowMilliseconds: Int64 {
        var time = timespec()
        _ = Syscall.clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// The current UTC time as "2024-05-01T12:34:56.789Z".
    public static func timestamp() -> String {
        timestamp(millisecondsSinceEpoch: nowMilliseconds)
    }

    /// Formats a Unix time in milliseconds as "YYYY-MM-DDTHH:MM:SS.mmmZ" (UTC).
    public static func timestamp(millisecondsSinceEpoch: Int64) -> String {
        // Floor division so times before 1970 still get a valid millisecond part.
        var seconds = time_t(millisecondsSinceEpoch / 1000)
        var millis = Int(millisecondsSinceEpoch % 1000)
        if millis < 0 { millis += 1000; seconds -= 1 }
        var parts = tm()
        guard Syscall.gmtime_r(&seconds, &parts) != nil else { return "invalid-time" }
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
            + "." + pad(millis, 3) + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
