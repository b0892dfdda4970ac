#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// Turns signals into a readable descriptor for the event queue (signalfd).
///
/// Creating a watcher **blocks** its signals in the calling thread, so they
/// stay pending for the signalfd instead of running their default action.
/// Threads inherit the mask of the thread that creates them, so create the
/// watcher on the main thread before starting any other thread; a thread
/// created earlier would still have the signal unblocked and a process-wide
/// SIGTERM could be delivered there (and kill the process).
///
/// Register `descriptor` for `.readable`, then call `next()` until nil.
public struct SignalWatcher: Sendable {
    /// The signalfd (non-blocking, close-on-exec).
    public let descriptor: FileDescriptor
    /// The watched signals.
    public let signals: Set<Signal>

    /// Blocks `signals` in the calling thread and opens a signalfd for them.
    public init(signals: Set<Signal>) throws(Errno) {
        var mask = SignalWatcher.mask(of: signals)
        _ = try SignalWatcher.check(Syscall.pthread_sigmask(SIG_BLOCK, &mask, nil))
        let fd = try valueOrThrow { Syscall.signalfd(-1, &mask, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
        self.signals = signals
    }

    /// The next pending watched signal, or nil if none is pending.
    public func next() throws(Errno) -> Signal? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        let result = try ioResult { Syscall.read(descriptor.rawValue, &info, size) }
        guard case .processed(let count) = result, count == size else { return nil }
        return Signal(rawValue: Int32(info.ssi_signo))
    }

    /// Unblocks the watched signals in the calling thread (e.g. at the end of
    /// a test). Only do this once any pending ones have been read with `next()`:
    /// a still-pending signal would run its default action at once.
    func unblockInCurrentThread() throws(Errno) {
        var mask = SignalWatcher.mask(of: signals)
        _ = try SignalWatcher.check(Syscall.pthread_sigmask(SIG_UNBLOCK, &mask, nil))
    }

    /// Closes the signalfd; the signals stay blocked.
    public func close() throws(Errno) {
        try descriptor.close()
    }

    private static func mask(of signals: Set<Signal>) -> sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal.rawValue) }
        return mask
    }

    /// pthread functions return the error number instead of setting errno.
    private static func check(_ code: Int32) throws(Errno) -> Int32 {
        if code != 0 { throw Errno(rawValue: code) }
        return code
    }
}
