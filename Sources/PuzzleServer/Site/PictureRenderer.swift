import Dispatch
import Foundation
import PuzzleSystem

/// Draws and encodes browser pictures on a thread of its own: a 2048-pixel
/// PNG takes about a second, which the event loop must not spend while
/// players drag. A finished job is collected by the loop, woken through
/// `descriptor` (registered with its epoll set).
final class PictureRenderer: @unchecked Sendable {
    private let queue = DispatchQueue(label: "puzzle.picture-renderer", qos: .utility)
    private let waker: Waker
    private let lock = NSLock()
    /// Finished jobs not yet collected (guarded by `lock`).
    private var finished: [(key: String, file: WebFile?)] = []
    /// Keys being drawn (loop thread only).
    private var inFlight: Set<String> = []

    var descriptor: FileDescriptor { waker.descriptor }

    init() throws(Errno) {
        waker = try Waker()
    }

    // Jobs hold the renderer, so the eventfd closes only after the last one
    // has written to it: never a write to a number reused since.
    deinit { try? waker.close() }

    /// Starts drawing `key` unless it is being drawn already; false if it was.
    func start(_ key: String, _ job: @escaping @Sendable () -> WebFile?) -> Bool {
        guard inFlight.insert(key).inserted else { return false }
        queue.async { [self] in
            let file = job()
            lock.lock()
            finished.append((key, file))
            lock.unlock()
            waker.wake()
        }
        return true
    }

    /// The jobs finished since the last call (loop thread).
    func collect() -> [(key: String, file: WebFile?)] {
        _ = try? waker.drain()
        lock.lock()
        let done = finished
        finished.removeAll()
        lock.unlock()
        for item in done { inFlight.remove(item.key) }
        return done
    }
}
