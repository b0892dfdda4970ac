#if canImport(Glibc)
import Glibc
#endif

/// Directory operations: create (one level or `mkdir -p`), list, remove, sync.
public enum Directory {
    /// Creates one directory. Throws `.fileExists` if something is already there.
    public static func create(_ path: String, permissions: UInt32 = 0o755) throws(Errno) {
        _ = try valueOrThrow { Syscall.mkdir(path, permissions) }
    }

    /// `mkdir -p`: creates `path` and any missing parents. An existing
    /// directory is fine; an existing non-directory throws `.notDirectory`.
    /// - Returns: whether `path` itself was created by this call.
    @discardableResult
    public static func createAll(_ path: String, permissions: UInt32 = 0o755) throws(Errno) -> Bool {
        guard !path.isEmpty else { throw Errno.noSuchFile }
        var created = false
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
            prefix += component
            switch retryOnInterrupt({ Syscall.mkdir(prefix, permissions) }) {
            case .success:
                created = true
            case .failure(let error) where error == .fileExists:
                created = false
                guard try isDirectory(prefix) else { throw Errno.notDirectory }
            case .failure(let error):
                throw error
            }
        }
        return created
    }

    /// Whether `path` names a directory (false if it is missing).
    public static func isDirectory(_ path: String) throws(Errno) -> Bool {
        switch retryOnInterrupt({ Syscall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }) {
        case .success(let fd):
            _ = Syscall.close(fd)
            return true
        case .failure(let error) where error == .notDirectory || error == .noSuchFile:
            return false
        case .failure(let error):
            throw error
        }
    }

    /// The names in a directory, without "." and "..", sorted bytewise so that
    /// callers get a stable order.
    public static func entries(_ path: String) throws(Errno) -> [String] {
        var dir: OpaquePointer?
        while true {
            dir = Syscall.opendir(path)
            if dir != nil { break }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
        guard let dir else { throw Errno.badFileDescriptor }
        defer { _ = Syscall.closedir(dir) }
        var names: [String] = []
        while true {
            // readdir reports errors only through errno, and leaves it alone at the end.
            Syscall.clearErrno()
            guard let entry = Syscall.readdir(dir) else {
                let error = Errno.current
                if error.rawValue != 0 { throw error }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Removes an empty directory.
    public static func remove(_ path: String) throws(Errno) {
        _ = try valueOrThrow { Syscall.rmdir(path) }
    }

    /// fsyncs a directory, making the creations, renames and removals of
    /// entries in it durable (a file's own fsync does not cover its name).
    public static func sync(_ path: String) throws(Errno) {
        let fd = try valueOrThrow { Syscall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        defer { _ = Syscall.close(fd) }
        _ = try valueOrThrow { Syscall.fsync(fd) }
    }
}
