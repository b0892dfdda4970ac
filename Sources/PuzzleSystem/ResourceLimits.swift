#if canImport(Glibc)
import Glibc
#endif

/// Per-process resource limits (getrlimit/setrlimit).
public enum ResourceLimits {
    /// The current soft and hard RLIMIT_NOFILE.
    public static func openFileLimit() throws(Errno) -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        _ = try valueOrThrow { Syscall.getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft open-file limit towards `wanted`, capped at the hard
    /// limit (an unprivileged process cannot go beyond it). Never lowers it.
    ///
    /// - Returns: the soft limit now in effect.
    @discardableResult
    public static func raiseOpenFileLimit(to wanted: UInt64) throws(Errno) -> UInt64 {
        var limit = rlimit()
        _ = try valueOrThrow { Syscall.getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        let target = min(rlim_t(wanted), limit.rlim_max)
        guard target > limit.rlim_cur else { return UInt64(limit.rlim_cur) }
        limit.rlim_cur = target
        _ = try valueOrThrow { Syscall.setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        return UInt64(target)
    }
}
