#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// A POSIX error number, thrown by every wrapper in this module.
///
/// Like swift-system's `Errno`: a plain value, comparable against the named
/// constants, so callers above PuzzleSystem never need to import Glibc.
/// "Would block" is never thrown; it comes back as `IOResult.wouldBlock`.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    public let rawValue: Int32

    /// Wraps a raw `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: csystem_errno()) }

    /// The `strerror` text plus the symbolic number, e.g. "Broken pipe (errno 32)".
    public var description: String {
        // glibc's strerror is thread-safe for known values (static strings) and
        // uses a thread-local buffer for unknown ones, so no strerror_r dance.
        let text = strerror(rawValue).map { String(cString: $0) } ?? "Unknown error"
        return "\(text) (errno \(rawValue))"
    }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    public static let notConnected = Errno(rawValue: ENOTCONN)
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)
    public static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let permissionDenied = Errno(rawValue: EPERM)
    public static let hostUnreachable = Errno(rawValue: EHOSTUNREACH)
    public static let networkUnreachable = Errno(rawValue: ENETUNREACH)
}
