#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// Wakes an `EpollQueue` from another thread or a signal handler (eventfd).
///
/// Register `descriptor` for `.readable`; when it fires, call `drain()`.
/// Many `wake()` calls before a drain collapse into one wake-up.
public struct Waker: Hashable, Sendable {
    /// The eventfd to register with the queue.
    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        let fd = try valueOrThrow { Syscall.eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Makes the descriptor readable. Async-signal-safe (one write(2)).
    ///
    /// Errors are ignored: `EAGAIN` means the counter is saturated, i.e. a
    /// wake-up is already pending, which is all a caller could want.
    public func wake() {
        var one: UInt64 = 1
        _ = retryOnInterrupt { Syscall.write(descriptor.rawValue, &one, MemoryLayout<UInt64>.size) }
    }

    /// Resets the descriptor to not readable.
    ///
    /// - Returns: how many `wake()` calls were collapsed (0 if none pending).
    @discardableResult
    public func drain() throws(Errno) -> UInt64 {
        var count: UInt64 = 0
        let result = try ioResult { Syscall.read(descriptor.rawValue, &count, MemoryLayout<UInt64>.size) }
        return result == .wouldBlock ? 0 : count
    }

    /// Closes the eventfd.
    public func close() throws(Errno) {
        try descriptor.close()
    }
}
