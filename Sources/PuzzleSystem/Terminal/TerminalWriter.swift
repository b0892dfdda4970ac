#if canImport(Glibc)
import Glibc
#endif

/// Writes whole buffers to a terminal (or any file descriptor).
///
/// A frame is handed over in a single `write(2)` whenever the descriptor accepts it all, so the
/// terminal never shows half a frame; partial writes, `EINTR` and `EAGAIN` (waiting with `poll`
/// for writability) are handled by looping over the rest.
public struct TerminalWriter: Sendable {
    /// The descriptor written to.
    public let fd: Int32

    /// Creates a writer for `fd`; the descriptor is not owned and never closed.
    public init(fd: Int32) {
        self.fd = fd
    }

    /// Writes every byte of `bytes`.
    ///
    /// - Parameter timeoutMilliseconds: how long to wait in total for the descriptor to become
    ///   writable when it would block; negative waits forever.
    /// - Throws: `.timedOut(written:)` when the wait ran out, `.system` for write/poll errors.
    public func writeAll(_ bytes: [UInt8], timeoutMilliseconds: Int = -1) throws(TerminalError) {
        let deadline = timeoutMilliseconds < 0 ? nil : MonotonicClock.nowMilliseconds + Int64(timeoutMilliseconds)
        var written = 0
        try bytes.withUnsafeBufferPointer { (buffer) throws(TerminalError) in
            while written < buffer.count {
                let fd = fd
                switch retryOnInterrupt({ Syscall.write(fd, buffer.baseAddress! + written, buffer.count - written) }) {
                case .success(let n): written += n
                case .failure(let error) where error == .wouldBlock: try waitWritable(deadline: deadline, written: written)
                case .failure(let error): throw .system(call: "write", errno: error)
                }
            }
        }
    }

    private func waitWritable(deadline: Int64?, written: Int) throws(TerminalError) {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - MonotonicClock.nowMilliseconds
                guard remaining > 0 else { throw .timedOut(written: written) }
                timeout = Int32(clamping: remaining)
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = try TerminalError.check("poll") { Syscall.poll(&descriptor, 1, timeout) }
            if ready > 0 { return }  // writable, or an error the next write will report
            // Timed out: the deadline check above decides.
        }
    }
}
