import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// Raw file and directory calls, kept in the C shape (`-1` + `errno`) like the
/// rest of `Syscall` so that `retryOnInterrupt` treats them uniformly.
extension Syscall {
    static func open(_ path: String, _ flags: Int32, _ mode: UInt32) -> Int32 {
        Glibc.open(path, flags, mode_t(mode))
    }

    static func fsync(_ fd: Int32) -> Int32 {
        Glibc.fsync(fd)
    }

    static func syncfs(_ fd: Int32) -> Int32 {
        csystem_syncfs(fd)
    }

    static func fdatasync(_ fd: Int32) -> Int32 {
        Glibc.fdatasync(fd)
    }

    static func ftruncate(_ fd: Int32, _ length: Int64) -> Int32 {
        Glibc.ftruncate(fd, off_t(length))
    }

    static func lseek(_ fd: Int32, _ offset: Int64, _ whence: Int32) -> Int64 {
        Int64(Glibc.lseek(fd, off_t(offset), whence))
    }

    static func flockExclusiveNonBlocking(_ fd: Int32) -> Int32 {
        csystem_flock_exclusive_nonblocking(fd)
    }

    static func flockUnlock(_ fd: Int32) -> Int32 {
        csystem_flock_unlock(fd)
    }

    static func link(_ from: String, _ to: String) -> Int32 {
        Glibc.link(from, to)
    }

    static func rename(_ from: String, _ to: String) -> Int32 {
        Glibc.rename(from, to)
    }

    static func unlink(_ path: String) -> Int32 {
        Glibc.unlink(path)
    }

    static func mkdir(_ path: String, _ mode: UInt32) -> Int32 {
        Glibc.mkdir(path, mode_t(mode))
    }

    static func rmdir(_ path: String) -> Int32 {
        Glibc.rmdir(path)
    }

    static func opendir(_ path: String) -> OpaquePointer? {
        Glibc.opendir(path)
    }

    static func readdir(_ dir: OpaquePointer) -> UnsafeMutablePointer<dirent>? {
        Glibc.readdir(dir)
    }

    static func closedir(_ dir: OpaquePointer) -> Int32 {
        Glibc.closedir(dir)
    }

    /// Clears `errno`, which `readdir` leaves alone at the end of a directory.
    static func clearErrno() {
        errno = 0
    }
}
