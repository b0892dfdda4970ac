#if canImport(Glibc)
import Glibc
#endif

/// A POSIX signal number, named so callers need not import Glibc.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let interrupt = Signal(rawValue: SIGINT)
    public static let terminate = Signal(rawValue: SIGTERM)
    public static let hangup = Signal(rawValue: SIGHUP)
    public static let brokenPipe = Signal(rawValue: SIGPIPE)
    public static let user1 = Signal(rawValue: SIGUSR1)
    public static let user2 = Signal(rawValue: SIGUSR2)
    public static let windowChanged = Signal(rawValue: SIGWINCH)
    public static let kill = Signal(rawValue: SIGKILL)

    public var description: String {
        switch rawValue {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGPIPE: return "SIGPIPE"
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        case SIGWINCH: return "SIGWINCH"
        default: return "signal \(rawValue)"
        }
    }
}

/// Process-wide signal settings.
public enum Signals {
    /// Sets SIGPIPE to ignored for the whole process, so a write to a closed
    /// pipe or socket fails with `Errno.brokenPipe` instead of killing it.
    /// (`Socket.send` already uses MSG_NOSIGNAL; this covers plain `write`.)
    public static func ignoreBrokenPipe() throws(Errno) {
        _ = try valueOrThrow { Syscall.ignoreSignal(SIGPIPE) }
    }

    /// Sends `signal` to the calling thread (raise(3)), e.g. for tests.
    static func raiseInCurrentThread(_ signal: Signal) throws(Errno) {
        // raise returns a nonzero value, not necessarily -1, on failure.
        if Syscall.raise(signal.rawValue) != 0 { throw Errno.current }
    }

    /// Sends `signal` to process `pid` (kill(2)), e.g. SIGKILL in crash tests.
    public static func send(_ signal: Signal, to pid: Int32) throws(Errno) {
        _ = try valueOrThrow { Syscall.kill(pid, signal.rawValue) }
    }
}
