#if canImport(Glibc)
import Glibc
#endif

/// Resource usage of the current process, for load-test reports.
public enum ProcessStats {
    /// This process's id (getpid).
    public static var processID: Int32 { Syscall.getpid() }

    /// Resident set size in bytes, from the second field of /proc/self/statm.
    public static func residentBytes() throws(Errno) -> Int {
        let file = try FileDescriptor.openForReading("/proc/self/statm")
        defer { try? file.close() }
        var text: [UInt8] = []
        // statm is one short line ("size resident shared ..."), but read until
        // EOF anyway rather than trusting a single read.
        while case .processed(let count) = try file.read(appendingTo: &text, maxBytes: 256), count > 0 {}
        let fields = text.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") })
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else {
            throw .invalidArgument
        }
        return pages * Syscall.pageSize()
    }

    /// User plus system CPU time consumed so far, in seconds.
    public static func cpuSeconds() throws(Errno) -> Double {
        var usage = rusage()
        _ = try valueOrThrow { Syscall.getrusage(RUSAGE_SELF.rawValue, &usage) }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
