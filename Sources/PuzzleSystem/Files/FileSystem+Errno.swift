#if canImport(Glibc)
import Glibc
#endif

/// The error numbers file and directory code needs to tell apart.
extension Errno {
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let directoryNotEmpty = Errno(rawValue: ENOTEMPTY)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let ioError = Errno(rawValue: EIO)
    public static let accessDenied = Errno(rawValue: EACCES)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
}
