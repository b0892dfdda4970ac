import Foundation
import PuzzleSystem
import PuzzleServer

/// The real epoll queue, with `modify` or `wait` failing while a test says so.
/// Thread-safe: the test flips the fault while the server's loop runs on its
/// own thread.
final class FaultyReadinessQueue: ReadinessQueue, @unchecked Sendable {
    private let lock = NSLock()
    private let real: EpollQueue
    private var modifyFault: Errno?
    private var failedModifies = 0
    private var waitFault: Errno?

    init() throws {
        real = try EpollQueue(maxEventsPerWait: 1024)
    }

    /// Every `modify` fails with `errno` from now on (nil: none fails).
    func failModifies(_ errno: Errno?) {
        lock.withLock { modifyFault = errno }
    }

    /// The next `wait` (and every later one) fails with `errno`.
    func failWaits(_ errno: Errno?) {
        lock.withLock { waitFault = errno }
    }

    /// `modify` calls that failed so far.
    var failedModifyCount: Int { lock.withLock { failedModifies } }

    func register(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno) {
        try real.register(descriptor, interest: interest, token: token)
    }

    func modify(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno) {
        let fault: Errno? = lock.withLock {
            if modifyFault != nil { failedModifies += 1 }
            return modifyFault
        }
        if let fault { throw fault }
        try real.modify(descriptor, interest: interest, token: token)
    }

    func deregister(_ descriptor: FileDescriptor) throws(Errno) {
        try real.deregister(descriptor)
    }

    func wait(timeoutMillis: Int32) throws(Errno) -> EpollQueue.Events {
        if let fault = lock.withLock({ waitFault }) { throw fault }
        return try real.wait(timeoutMillis: timeoutMillis)
    }
}
