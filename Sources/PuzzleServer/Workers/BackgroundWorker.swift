import Foundation
import PuzzleSystem

/// The nice value of the threads that work beside the loop (workers, the
/// room loader); the loop's is the process's.
let backgroundNice: Int32 = 10

/// Runs slow jobs (drawing a picture, decoding and storing an upload, making
/// a room) on a thread of its own, one at a time, and hands their results
/// back to the event loop: the loop registers `descriptor` with its epoll
/// set, and when it turns readable, `collect`s what finished. The loop never
/// waits for a job and never spends its own time on one while players drag.
///
/// One at a time, on one thread: a worker never takes more than one core,
/// nor more than one job's memory. The thread runs at a lower priority
/// (`nice`) than the loop, so that on a machine with no core to spare a job
/// yields to the loop rather than delay everyone's replies (issue 31: rooms
/// made off the loop still held a bystander's PING up to 13 ms on 2 cores
/// while their thread ran at the loop's priority).
///
/// `start`, `collect`, `inFlight` and `waitUntilIdle` belong to the loop's
/// thread; only `work` runs on the worker's. The thread ends once the
/// worker is gone and its queued jobs are done.
final class BackgroundWorker<Job: Sendable, Output: Sendable>: @unchecked Sendable {
    private let mailbox: Mailbox
    /// Jobs started and not yet collected (loop thread only).
    private(set) var inFlight = 0

    /// Readable while a finished job waits to be collected.
    var descriptor: FileDescriptor { mailbox.waker.descriptor }

    /// `label` names the worker's thread (in a debugger, a profile);
    /// `work` turns a job into its output, on that thread.
    init(label: String, nice: Int32 = backgroundNice, work: @escaping @Sendable (Job) -> Output) throws(Errno) {
        let mailbox = Mailbox(waker: try Waker())
        self.mailbox = mailbox
        let thread = Thread { mailbox.serve(work, nice: nice) }
        thread.name = label
        // Image decoders and encoders recurse a little; the default 512 KiB is tight.
        thread.stackSize = 4 << 20
        thread.start()
    }

    deinit { mailbox.close() }

    /// Queues `job`; its output comes from a later `collect`.
    func start(_ job: Job) {
        inFlight += 1
        mailbox.post(job)
    }

    /// Waits until every job started has run (their outputs then wait for
    /// `collect`): a server stopping lets no job write into its data
    /// directory once it has let go of it. Never call it from a job.
    func waitUntilIdle() {
        mailbox.waitUntilIdle()
    }

    /// The outputs of the jobs finished since the last call, oldest first;
    /// empty (at once) when none has. Leaves `descriptor` unreadable until
    /// another job finishes.
    func collect() -> [Output] {
        let done = mailbox.take()
        inFlight -= done.count
        return done
    }

    /// What the loop and the worker's thread share, under one lock. Owned by
    /// both: the eventfd closes only once neither can touch it, never a
    /// write to a descriptor number reused since.
    private final class Mailbox: @unchecked Sendable {
        let waker: Waker
        private let condition = NSCondition()
        private var jobs: [Job] = []
        private var finished: [Output] = []
        private var busy = false
        private var closed = false

        init(waker: Waker) { self.waker = waker }

        deinit { try? waker.close() }

        /// The worker's thread: jobs in order until the worker is gone and none is left.
        func serve(_ work: (Job) -> Output, nice: Int32) {
            try? ThreadPriority.lowerCurrentThread(nice: nice)
            condition.lock()
            while true {
                while jobs.isEmpty && !closed { condition.wait() }
                guard !jobs.isEmpty else { break }
                let job = jobs.removeFirst()
                busy = true
                condition.unlock()
                let output = work(job)
                condition.lock()
                busy = false
                // The output and its wake-up go in under the lock `take`
                // drains and takes under: a readable descriptor always has
                // an output waiting (none unannounced, no spurious wake-up).
                finished.append(output)
                waker.wake()
                condition.broadcast()
            }
            condition.unlock()
        }

        func post(_ job: Job) {
            condition.lock()
            jobs.append(job)
            condition.broadcast()
            condition.unlock()
        }

        func take() -> [Output] {
            condition.lock()
            defer { condition.unlock() }
            _ = try? waker.drain()
            let done = finished
            finished.removeAll()
            return done
        }

        func waitUntilIdle() {
            condition.lock()
            while !jobs.isEmpty || busy { condition.wait() }
            condition.unlock()
        }

        /// No more jobs come: the thread ends after those queued.
        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
