import Foundation
import PuzzleSystem
@testable import PuzzleServer

/// The real storage calls, with failures a test switches on (for paths that
/// contain a given string) and a count of every sync. Thread-safe: the test
/// flips faults while the server's loop runs on its own thread.
final class FaultyStorageDevice: StorageDevice, @unchecked Sendable {
    private let lock = NSLock()
    private let real = SystemStorageDevice()
    private var writeFault: (match: String, errno: Errno)?
    private var syncFault: (match: String, errno: Errno)?
    private var fileFault: (match: String, errno: Errno)?
    private var syncs = 0

    /// Journal appends to paths containing `match` fail with `errno` (nil: none fail).
    func failWrites(_ errno: Errno?, matching match: String = "/journal") {
        lock.withLock { writeFault = errno.map { (match, $0) } }
    }

    /// fdatasync and syncfs fail with `errno` (nil: none fail).
    func failSyncs(_ errno: Errno?, matching match: String = "/journal") {
        lock.withLock { syncFault = errno.map { (match, $0) } }
    }

    /// Whole-file writes (snapshots, fresh journals) fail with `errno`.
    func failFileWrites(_ errno: Errno?, matching match: String = "/") {
        lock.withLock { fileFault = errno.map { (match, $0) } }
    }

    /// fdatasync and syncfs calls made so far (failed ones included).
    var syncCount: Int { lock.withLock { syncs } }

    private func fault(_ which: (match: String, errno: Errno)?, _ path: String) -> Errno? {
        guard let which, path.contains(which.match) else { return nil }
        return which.errno
    }

    func write(_ bytes: [UInt8], to descriptor: FileDescriptor, path: String) throws(Errno) {
        if let errno = lock.withLock({ fault(writeFault, path) }) {
            // Like a disk that fills part-way: half the bytes land, then the error.
            try real.write(Array(bytes.prefix(bytes.count / 2)), to: descriptor, path: path)
            throw errno
        }
        try real.write(bytes, to: descriptor, path: path)
    }

    func dataSync(_ descriptor: FileDescriptor, path: String) throws(Errno) {
        let errno = lock.withLock { () -> Errno? in
            syncs += 1
            return fault(syncFault, path)
        }
        if let errno { throw errno }
        try real.dataSync(descriptor, path: path)
    }

    func syncFileSystem(_ descriptor: FileDescriptor, path: String) throws(Errno) {
        let errno = lock.withLock { () -> Errno? in
            syncs += 1
            return fault(syncFault, path)
        }
        if let errno { throw errno }
        try real.syncFileSystem(descriptor, path: path)
    }

    func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool) throws(Errno) {
        if let errno = lock.withLock({ fault(fileFault, path) }) { throw errno }
        try real.writeFile(path, bytes, sync: sync)
    }
}
