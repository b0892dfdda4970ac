import Dispatch
import Foundation
import PuzzleSystem

/// Runs slow jobs (drawing a picture, decoding and storing an upload) on a
/// thread of its own, one at a time, and hands their results back to the
/// event loop: the loop registers `descriptor` with its epoll set, and when
/// it turns readable, `collect`s what finished. The loop never waits for a
/// job and never spends its own time on one while players drag.
///
/// One at a time (a serial queue): a worker never takes more than one core,
/// nor more than one job's memory. `start`, `collect` and `inFlight` belong
/// to the loop's thread; only `work` runs on the worker's.
final class BackgroundWorker<Job: Sendable, Output: Sendable>: @unchecked Sendable {
    private let queue: DispatchQueue
    private let work: @Sendable (Job) -> Output
    private let waker: Waker
    private let lock = NSLock()
    /// Outputs not yet collected, in the order their jobs finished (guarded by `lock`).
    private var finished: [Output] = []
    /// Jobs started and not yet collected (loop thread only).
    private(set) var inFlight = 0

    /// Readable while a finished job waits to be collected.
    var descriptor: FileDescriptor { waker.descriptor }

    /// `label` names the worker's thread (in a debugger, a profile);
    /// `work` turns a job into its output, on that thread.
    init(label: String, work: @escaping @Sendable (Job) -> Output) throws(Errno) {
        queue = DispatchQueue(label: label, qos: .utility)
        self.work = work
        waker = try Waker()
    }

    // Queued jobs hold the worker, so the eventfd closes only after the last
    // one has written to it: never a write to a descriptor number reused since.
    deinit { try? waker.close() }

    /// Queues `job`; its output comes from a later `collect`.
    func start(_ job: Job) {
        inFlight += 1
        queue.async { [self] in
            let output = work(job)
            lock.lock()
            finished.append(output)
            waker.wake()
            lock.unlock()
        }
    }

    /// Waits until every job started has run (their outputs then wait for
    /// `collect`): a server stopping lets no job write into its data
    /// directory once it has let go of it. Never call it from a job.
    func waitUntilIdle() {
        queue.sync {}
    }

    /// The outputs of the jobs finished since the last call, oldest first;
    /// empty (at once) when none has. Leaves `descriptor` unreadable until
    /// another job finishes.
    func collect() -> [Output] {
        // Drained and taken under the lock that a job's output and its wake
        // go in under: a descriptor left readable always has an output
        // waiting (none is left unannounced, and no wake-up is spurious).
        lock.lock()
        _ = try? waker.drain()
        let done = finished
        finished.removeAll()
        lock.unlock()
        inFlight -= done.count
        return done
    }
}
