#if canImport(Glibc)
import Glibc
#endif

/// Regular-file operations: what a durable store needs beyond plain reads and writes.
extension FileDescriptor {
    /// Opens (and maybe creates) `path`. `permissions` applies only when the file
    /// is created, masked by the process umask.
    public static func open(_ path: String, _ options: FileOpenOptions, permissions: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        let fd = try valueOrThrow { Syscall.open(path, options.flags, permissions) }
        return FileDescriptor(rawValue: fd)
    }

    /// Writes every byte of `bytes`, looping over short writes. Meant for blocking
    /// descriptors (regular files); a non-blocking one that fills up throws `.wouldBlock`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            switch try write(rest) {
            case .processed(let count):
                // A regular file only writes 0 bytes for a 0-byte request; guard anyway
                // so that a strange descriptor cannot spin this loop forever.
                if count == 0 { throw Errno.noSpace }
                offset += count
            case .wouldBlock:
                throw Errno.wouldBlock
            }
        }
    }

    /// Writes every byte of `bytes` (see `writeAll(_:)` on a buffer).
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(buffer) } }.get()
    }

    /// `fsync`: data and all metadata reach stable storage.
    public func sync() throws(Errno) {
        _ = try valueOrThrow { Syscall.fsync(rawValue) }
    }

    /// `fdatasync`: data, plus the metadata needed to read it back (the size),
    /// reach stable storage. Enough for an append-only journal.
    public func dataSync() throws(Errno) {
        _ = try valueOrThrow { Syscall.fdatasync(rawValue) }
    }

    /// `syncfs`: makes everything written to the file system holding this
    /// descriptor durable, in one call. Cheaper than one `fdatasync` per file
    /// when many files were written (one journal commit instead of many).
    public func syncFileSystem() throws(Errno) {
        _ = try valueOrThrow { Syscall.syncfs(rawValue) }
    }

    /// `flock(LOCK_EX | LOCK_NB)`: takes this open file's exclusive advisory
    /// lock, held until `unlock()` or until every descriptor of this open file
    /// is closed (or the process ends, even by SIGKILL); a child forked
    /// meanwhile shares it. - Returns: false if another open file holds it.
    public func tryLockExclusive() throws(Errno) -> Bool {
        switch retryOnInterrupt({ Syscall.flockExclusiveNonBlocking(rawValue) }) {
        case .success: return true
        case .failure(let error) where error == .wouldBlock: return false
        case .failure(let error): throw error
        }
    }

    /// `flock(LOCK_UN)`: gives the open file's lock up at once, even while a
    /// forked child still has a copy of the descriptor.
    public func unlock() throws(Errno) {
        _ = try valueOrThrow { Syscall.flockUnlock(rawValue) }
    }

    /// Cuts (or extends with zeros) the file to `length` bytes.
    public func truncate(to length: Int64) throws(Errno) {
        _ = try valueOrThrow { Syscall.ftruncate(rawValue, length) }
    }

    /// The file's current size (seeks to the end; the next plain write goes there).
    public func seekToEnd() throws(Errno) -> Int64 {
        try valueOrThrow { Syscall.lseek(rawValue, 0, SEEK_END) }
    }

    /// Moves to the start of the file (the next plain read or write happens there).
    public func seekToStart() throws(Errno) -> Int64 {
        try valueOrThrow { Syscall.lseek(rawValue, 0, SEEK_SET) }
    }

    /// Reads from the current position to end of file.
    public func readToEnd() throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            switch try read(appendingTo: &bytes, maxBytes: 64 * 1024) {
            case .processed(0): return bytes
            case .processed: continue
            case .wouldBlock: throw Errno.wouldBlock
            }
        }
    }
}
