import PuzzleSystem

/// CPU time and memory of a process, read from /proc (for a server started
/// separately and named with `--server-pid`).
struct ProcessSample: Equatable, Sendable {
    /// User plus system CPU seconds.
    var cpuSeconds: Double
    /// Resident and peak resident memory (VmRSS, VmHWM) in bytes.
    var residentBytes: Int
    var peakResidentBytes: Int

    /// Reads /proc/<pid>/stat and /proc/<pid>/status; nil if the process is gone.
    static func read(pid: Int) -> ProcessSample? {
        guard let stat = text("/proc/\(pid)/stat"), let status = text("/proc/\(pid)/status") else { return nil }
        // Fields after the command name (which may contain spaces) start at ")".
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line: 12 and 13 after ")".
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        func kib(_ key: String) -> Int {
            for line in status.split(separator: "\n") where line.hasPrefix(key) {
                return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) * 1024
            }
            return 0
        }
        // USER_HZ is 100 on every Linux architecture Swift runs on.
        return ProcessSample(cpuSeconds: (user + system) / 100, residentBytes: kib("VmRSS:"), peakResidentBytes: kib("VmHWM:"))
    }

    private static func text(_ path: String) -> String? {
        guard let fd = try? FileDescriptor.openForReading(path) else { return nil }
        defer { try? fd.close() }
        var bytes: [UInt8] = []
        while let r = try? fd.read(appendingTo: &bytes, maxBytes: 4096), r.byteCount > 0 {}
        return String(decoding: bytes, as: UTF8.self)
    }
}
