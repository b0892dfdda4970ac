import Testing
@testable import PuzzleSystem

// These tests are synchronous on purpose: a sync test body runs on one thread
// throughout, and both the signal mask and raise(3) are per thread. A signal
// sent to the whole process could land on another test thread that does not
// block it and kill the run.
@Suite struct SignalWatcherTests {
    private func expectDelivered(_ signal: Signal) throws {
        let watcher = try SignalWatcher(signals: [signal])
        defer {
            try? watcher.unblockInCurrentThread()
            try? watcher.close()
        }
        #expect(try watcher.next() == nil)

        let queue = try EpollQueue()
        defer { queue.close() }
        try queue.register(watcher.descriptor, interest: .readable, token: 3)
        #expect(try queue.wait(timeoutMillis: 0).isEmpty)

        try Signals.raiseInCurrentThread(signal)
        #expect(try queue.wait(timeoutMillis: 10_000).first?.token == 3)
        #expect(try watcher.next() == signal)
        #expect(try watcher.next() == nil)
    }

    @Test func user1BecomesReadable() throws {
        try expectDelivered(.user1)
    }

    @Test func user2BecomesReadable() throws {
        try expectDelivered(.user2)
    }

    @Test func signalNamesAreReadable() {
        #expect(Signal.terminate.description == "SIGTERM")
        #expect(Signal.interrupt.description == "SIGINT")
    }
}
