#if canImport(Glibc)
import Glibc
#endif

/// Per-process resource limits (getrlimit/setrlimit).
public enum ResourceLimits {
    /// The current soft and hard RLIMIT_NOFILE.
    static func openFileLimit() throws(Errno) -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        _ = try valueOrThrow { Syscall.getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft open-file limit towards `wanted`, capped at the hard
    /// limit (an unprivileged process cannot go beyond it) and, when the hard
    /// limit is "unlimited", at the kernel's fs.nr_open. Never lowers it.
    ///
    /// - Returns: the soft limit now in effect.
    @discardableResult
    public static func raiseOpenFileLimit(to wanted: UInt64) throws(Errno) -> UInt64 {
        var limit = rlimit()
        _ = try valueOrThrow { Syscall.getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        var target = min(rlim_t(wanted), limit.rlim_max)
        if limit.rlim_max == rlim_t.max {  // RLIM_INFINITY (the macro does not import)
            // RLIMIT_NOFILE can never exceed fs.nr_open; setrlimit says EPERM.
            target = min(target, rlim_t(kernelMaximumOpenFiles()))
        }
        guard target > limit.rlim_cur else { return UInt64(limit.rlim_cur) }
        limit.rlim_cur = target
        _ = try valueOrThrow { Syscall.setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        return UInt64(target)
    }

    /// fs.nr_open, or 1 Mi (the kernel default) if it cannot be read.
    private static func kernelMaximumOpenFiles() -> UInt64 {
        guard let file = try? FileDescriptor.openForReading("/proc/sys/fs/nr_open") else { return 1 << 20 }
        defer { try? file.close() }
        var text: [UInt8] = []
        _ = try? file.read(appendingTo: &text, maxBytes: 64)
        let digits = text.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return UInt64(String(decoding: digits, as: UTF8.self)) ?? 1 << 20
    }
}
