#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor: a plain `Int32` with typed operations on it.
///
/// As in swift-system, this is a copyable value that does not own the
/// descriptor: whoever created it decides when to call `close()`, once.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw descriptor number.
    public let rawValue: Int32

    /// Wraps an existing descriptor without taking any action on it.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public var description: String { "fd(\(rawValue))" }

    /// Opens `path` read-only (close-on-exec).
    public static func openForReading(_ path: String) throws(Errno) -> FileDescriptor {
        let fd = try valueOrThrow { Syscall.open(path, O_RDONLY | O_CLOEXEC) }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor.
    ///
    /// Not retried on `EINTR`: Linux releases the number even then, and a
    /// retry could close a descriptor another thread has just been given.
    public func close() throws(Errno) {
        if Syscall.close(rawValue) == -1 {
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    /// Switches `O_NONBLOCK` on or off.
    func setNonBlocking(_ nonBlocking: Bool = true) throws(Errno) {
        let flags = try valueOrThrow { Syscall.getFlags(rawValue) }
        let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags {
            _ = try valueOrThrow { Syscall.setFlags(rawValue, wanted) }
        }
    }

    /// Whether `O_NONBLOCK` is set.
    func isNonBlocking() throws(Errno) -> Bool {
        let flags = try valueOrThrow { Syscall.getFlags(rawValue) }
        return flags & O_NONBLOCK != 0
    }
}
