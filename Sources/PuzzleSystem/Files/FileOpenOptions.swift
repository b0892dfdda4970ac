#if canImport(Glibc)
import Glibc
#endif

/// How `FileDescriptor.open` opens a file: the access mode plus the `O_*`
/// flags a store needs. Close-on-exec is always added.
public struct FileOpenOptions: Hashable, Sendable {
    /// Read, write, or both.
    public enum Access: Hashable, Sendable {
        case readOnly, writeOnly, readWrite
    }

    public var access: Access
    /// `O_CREAT`: create the file if it does not exist.
    public var create: Bool
    /// `O_EXCL` (with `create`): fail with `.fileExists` if it does exist.
    public var exclusive: Bool
    /// `O_TRUNC`: empty the file on open.
    public var truncate: Bool
    /// `O_APPEND`: every write goes to the current end, atomically positioned.
    public var append: Bool

    public init(access: Access, create: Bool = false, exclusive: Bool = false, truncate: Bool = false, append: Bool = false) {
        self.access = access
        self.create = create
        self.exclusive = exclusive
        self.truncate = truncate
        self.append = append
    }

    /// Read an existing file.
    public static let read = FileOpenOptions(access: .readOnly)
    /// Write a file from scratch: created if missing, emptied if present.
    public static let replace = FileOpenOptions(access: .writeOnly, create: true, truncate: true)
    /// Append to an existing file (a journal).
    public static let appendExisting = FileOpenOptions(access: .writeOnly, append: true)

    var flags: Int32 {
        var f: Int32 = O_CLOEXEC
        switch access {
        case .readOnly: f |= O_RDONLY
        case .writeOnly: f |= O_WRONLY
        case .readWrite: f |= O_RDWR
        }
        if create { f |= O_CREAT }
        if exclusive { f |= O_EXCL }
        if truncate { f |= O_TRUNC }
        if append { f |= O_APPEND }
        return f
    }
}
