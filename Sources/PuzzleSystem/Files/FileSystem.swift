/// Path-level file operations (rename, unlink, whole-file read and write).
///
/// Every call goes through `retryOnInterrupt`, like the descriptor wrappers.
public enum FileSystem {
    /// Atomically replaces `destination` with `source` (same file system).
    public static func rename(_ source: String, to destination: String) throws(Errno) {
        _ = try valueOrThrow { Syscall.rename(source, destination) }
    }

    /// Renames `source` if it exists. - Returns: false if there was no `source`.
    @discardableResult
    public static func renameIfPresent(_ source: String, to destination: String) throws(Errno) -> Bool {
        switch retryOnInterrupt({ Syscall.rename(source, destination) }) {
        case .success: return true
        case .failure(let error) where error == .noSuchFile: return false
        case .failure(let error): throw error
        }
    }

    /// Makes `destination` a second name of `source` (a hard link, same file
    /// system). Fails with `.fileExists` if `destination` exists.
    public static func link(_ source: String, to destination: String) throws(Errno) {
        _ = try valueOrThrow { Syscall.link(source, destination) }
    }

    /// Removes a file. `ignoringMissing` turns `ENOENT` into success.
    public static func removeFile(_ path: String, ignoringMissing: Bool = false) throws(Errno) {
        switch retryOnInterrupt({ Syscall.unlink(path) }) {
        case .success: return
        case .failure(let error) where ignoringMissing && error == .noSuchFile: return
        case .failure(let error): throw error
        }
    }

    /// The whole content of a file.
    public static func readFile(_ path: String) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(path, .read)
        defer { try? fd.close() }
        return try fd.readToEnd()
    }

    /// The whole content of a file, or nil if it does not exist.
    public static func readFileIfPresent(_ path: String) throws(Errno) -> [UInt8]? {
        do {
            return try readFile(path)
        } catch where error == .noSuchFile {
            return nil
        }
    }

    /// Writes `bytes` as the new content of `path`, creating it if needed;
    /// `sync` makes the data durable (fsync) before returning. Not atomic: see
    /// `replaceAtomically` for that.
    public static func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool, permissions: UInt32 = 0o644) throws(Errno) {
        let fd = try FileDescriptor.open(path, .replace, permissions: permissions)
        do {
            try fd.writeAll(bytes)
            if sync { try fd.sync() }
        } catch {
            try? fd.close()
            throw error
        }
        try fd.close()
    }

    /// Replaces `path` so that a reader (or a crash) sees either the old content
    /// or the new, never a mix: writes `temporaryPath`, syncs it, renames it over
    /// `path`, then syncs the directory so the rename itself is durable.
    /// With `sync: false` both syncs are skipped (atomic against process death only).
    public static func replaceAtomically(_ path: String, with bytes: [UInt8], temporaryPath: String,
                                         directory: String, sync: Bool) throws(Errno) {
        try writeFile(temporaryPath, bytes, sync: sync)
        try rename(temporaryPath, to: path)
        if sync { try Directory.sync(directory) }
    }
}
