import CSystem
import Glibc

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
        let deadline = timeoutMilliseconds < 0 ? nil : Self.monotonicMilliseconds() + timeoutMilliseconds
        var written = 0
        try bytes.withUnsafeBufferPointer { (buffer) throws(TerminalError) in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n >= 0 {
                    written += n
                    continue
                }
                let code = csystem_errno()
                if code == EINTR { continue }
                guard code == EAGAIN || code == EWOULDBLOCK else {
                    throw .system(call: "write", errno: code)
                }
                try waitWritable(deadline: deadline, written: written)
            }
        }
    }

    private func waitWritable(deadline: Int?, written: Int) throws(TerminalError) {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - Self.monotonicMilliseconds()
                guard remaining > 0 else { throw .timedOut(written: written) }
                timeout = Int32(clamping: remaining)
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return }  // writable, or an error the next write will report
            if ready == 0 { continue }  // the deadline check above decides
            let code = csystem_errno()
            if code == EINTR { continue }
            throw .system(call: "poll", errno: code)
        }
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
