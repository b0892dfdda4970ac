import PuzzleSystem

/// Keeps a second server off a data directory: an exclusive `flock` on
/// `<directory>/lock`, which holds the owner's pid for the message a second
/// server prints. Two servers appending to the same journals would interleave
/// records and each would replay the other's moves onto a board it never saw.
///
/// `release()` unlocks, and the kernel drops the lock when the last
/// descriptor of the open file is closed, which a process's death (even by
/// SIGKILL) does, so a crash never leaves a stale lock behind; the file
/// itself stays and is reused.
final class DataDirectoryLock {
    let path: String
    private var descriptor: FileDescriptor?

    /// Takes the lock, creating the directory and the lock file if needed.
    /// - Throws: `DataDirectoryLockError.held` naming the holder's pid when
    ///   another process (or another server in this one) has the directory.
    init(directory: String) throws(DataDirectoryLockError) {
        path = directory + "/lock"
        let path = self.path
        do {
            _ = try Directory.createAll(directory)
        } catch {
            throw .io(path: directory, error)
        }
        let fd: FileDescriptor
        let locked: Bool
        do {
            fd = try FileDescriptor.open(path, FileOpenOptions(access: .readWrite, create: true))
        } catch {
            throw .io(path: path, error)
        }
        do {
            locked = try fd.tryLockExclusive()
            if locked {
                try fd.truncate(to: 0)
                try fd.writeAll(Array("\(ProcessStats.processID)\n".utf8))
            }
        } catch {
            try? fd.close()
            throw .io(path: path, error)
        }
        guard locked else {
            // The holder writes its pid right after locking; a reader that
            // comes in between sees an empty file and says so.
            let text = String(decoding: (try? fd.readToEnd()) ?? [], as: UTF8.self)
            try? fd.close()
            throw .held(directory: directory, pid: Int32(text.split(separator: "\n").first ?? ""))
        }
        descriptor = fd
    }

    deinit { release() }

    /// Gives the directory up (idempotent). The pid stays in the file; the
    /// lock, not the file, says whether a server runs.
    func release() {
        // Unlock before closing: a child forked by another thread of this
        // process (a test spawning `puzzle`) shares the open file until it
        // execs, and closing only our descriptor would leave the lock with it.
        try? descriptor?.unlock()
        try? descriptor?.close()
        descriptor = nil
    }
}

/// Why a server could not take its data directory.
public enum DataDirectoryLockError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another server holds the directory; `pid` is what its lock file says (nil if unreadable yet).
    case held(directory: String, pid: Int32?)
    /// Creating the directory or the lock file failed.
    case io(path: String, Errno)

    public var description: String {
        switch self {
        case .held(let directory, let pid):
            return "data directory \(directory) is in use by another server (pid \(pid.map(String.init) ?? "unknown")); stop that server or pick another --data"
        case .io(let path, let errno):
            return "cannot lock the data directory: \(path): \(errno)"
        }
    }
}
