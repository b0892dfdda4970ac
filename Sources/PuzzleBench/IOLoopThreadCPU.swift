import PuzzleSystem

/// CPU time of the calling thread, from /proc/thread-self/schedstat (the
/// scheduler's nanosecond run time), so the load driver's share can be taken
/// out of the process total without a Glibc call outside PuzzleSystem.
enum IOLoopThreadCPU {
    /// Seconds this thread has run, or nil if schedstat is unavailable.
    static func seconds() -> Double? {
        guard let fd = try? FileDescriptor.openForReading("/proc/thread-self/schedstat") else { return nil }
        defer { try? fd.close() }
        var bytes: [UInt8] = []
        while case .processed(let n)? = try? fd.read(appendingTo: &bytes, maxBytes: 256), n > 0 {}
        guard let first = bytes.split(separator: UInt8(ascii: " ")).first,
              let nanos = UInt64(String(decoding: first, as: UTF8.self)) else { return nil }
        return Double(nanos) / 1e9
    }
}
