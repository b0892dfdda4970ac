import Dispatch
import Foundation
import Testing
import PuzzleSystem
@testable import PuzzleServer

/// The worker both the browser pictures and the uploads run on: jobs in,
/// outputs out in order, the loop woken through the descriptor and never
/// made to wait, one job at a time.
@Suite struct BackgroundWorkerTests {
    /// Waits (at most 10 s) until `worker`'s descriptor is readable, as the loop's epoll wait would.
    private func waitReadable<J, O>(_ worker: BackgroundWorker<J, O>) throws -> Bool {
        let queue = try EpollQueue()
        defer { queue.close() }
        try queue.register(worker.descriptor, interest: .readable, token: 1)
        return try queue.wait(timeoutMillis: 10_000).first?.token == 1
    }

    /// Collects until `count` outputs came (each after a wake-up), or 10 s passed.
    private func collect<J, O>(_ count: Int, from worker: BackgroundWorker<J, O>) throws -> [O] {
        var outputs: [O] = []
        let deadline = MonotonicClock.nowMilliseconds + 10_000
        while outputs.count < count && MonotonicClock.nowMilliseconds < deadline {
            guard try waitReadable(worker) else { break }
            outputs += worker.collect()
        }
        return outputs
    }

    @Test func outputsComeBackInOrderAfterAWakeUp() throws {
        let worker = try BackgroundWorker<Int, String>(label: "test.worker") { "job \($0)" }
        #expect(worker.collect().isEmpty && worker.inFlight == 0)
        for n in 1...5 { worker.start(n) }
        #expect(worker.inFlight == 5)
        let outputs = try collect(5, from: worker)
        #expect(outputs == ["job 1", "job 2", "job 3", "job 4", "job 5"])
        #expect(worker.inFlight == 0)
        // Everything collected: the descriptor is quiet again, and so is collect.
        let queue = try EpollQueue()
        defer { queue.close() }
        try queue.register(worker.descriptor, interest: .readable, token: 1)
        #expect(try queue.wait(timeoutMillis: 0).isEmpty)
        #expect(worker.collect().isEmpty)
    }

    @Test func theLoopNeverWaitsForAJob() throws {
        let gate = DispatchSemaphore(value: 0)
        let worker = try BackgroundWorker<Int, Int>(label: "test.worker") { n in
            gate.wait()
            return n * 2
        }
        let started = MonotonicClock.nowMilliseconds
        worker.start(21)
        // The job is stuck behind the gate, yet start returned and collect answers at once.
        #expect(worker.collect().isEmpty)
        #expect(worker.inFlight == 1)
        #expect(MonotonicClock.nowMilliseconds - started < 1_000)
        gate.signal()
        #expect(try collect(1, from: worker) == [42])
        #expect(worker.inFlight == 0)
    }

    /// A record of how many jobs run at once, shared with the worker's thread.
    private final class Overlap: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 0
        private(set) var most = 0
        func enter() { lock.lock(); running += 1; most = max(most, running); lock.unlock() }
        func leave() { lock.lock(); running -= 1; lock.unlock() }
    }

    @Test func jobsRunOneAtATime() throws {
        let overlap = Overlap()
        let worker = try BackgroundWorker<Int, Int>(label: "test.worker") { n in
            overlap.enter()
            defer { overlap.leave() }
            Thread.sleep(forTimeInterval: 0.005)
            return n
        }
        for n in 0..<8 { worker.start(n) }
        #expect(try collect(8, from: worker) == Array(0..<8))
        #expect(overlap.most == 1)
    }
}
