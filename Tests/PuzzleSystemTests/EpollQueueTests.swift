import Dispatch
import Testing
import PuzzleSystem

@Suite struct EpollQueueTests {
    @Test func reportsReadableOnlyAfterDataArrives() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        try withPair { a, b throws in
            try queue.register(b.descriptor, interest: .readable, token: 7)
            #expect(try queue.wait(timeoutMillis: 0).isEmpty)
            #expect(try a.send([42]) == .processed(1))
            let events = Array(try queue.wait(timeoutMillis: 10_000))
            #expect(events.count == 1)
            #expect(events.first?.token == 7)
            #expect(events.first?.readable == true)
            #expect(events.first?.writable == false)
            // Level-triggered: still reported while the byte is unread.
            #expect(try queue.wait(timeoutMillis: 0).count == 1)
            #expect(try receive(b, count: 1) == [42])
            #expect(try queue.wait(timeoutMillis: 0).isEmpty)
        }
    }

    @Test func reportsWritableAndFollowsModify() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        try withPair { a, _ throws in
            try queue.register(a.descriptor, interest: .both, token: 1)
            let first = try queue.wait(timeoutMillis: 10_000).first
            #expect(first?.token == 1)
            #expect(first?.writable == true)
            #expect(first?.readable == false)

            try queue.modify(a.descriptor, interest: .readable, token: 2)
            #expect(try queue.wait(timeoutMillis: 0).isEmpty)
            try queue.modify(a.descriptor, interest: .writable, token: 3)
            #expect(try queue.wait(timeoutMillis: 10_000).first?.token == 3)
            try queue.deregister(a.descriptor)
            #expect(try queue.wait(timeoutMillis: 0).isEmpty)
        }
    }

    @Test func writableReturnsWhenAFullBufferDrains() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        try withPair { a, b throws in
            try a.setSendBufferSize(4096)
            let chunk = [UInt8](repeating: 1, count: 16 * 1024)
            var sent = 0
            while case .processed(let n) = try a.send(chunk) { sent += n }
            try queue.register(a.descriptor, interest: .writable, token: 5)
            #expect(try queue.wait(timeoutMillis: 0).isEmpty)
            _ = try receive(b, count: sent)
            #expect(try queue.wait(timeoutMillis: 10_000).first?.writable == true)
        }
    }

    @Test func peerCloseIsReportedAsHangup() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        let (a, b) = try Socket.pair()
        defer { try? a.close() }
        try queue.register(a.descriptor, interest: .readable, token: 9)
        try b.close()
        let event = try queue.wait(timeoutMillis: 10_000).first
        #expect(event?.token == 9)
        #expect(event?.hangup == true)
        #expect(event?.readable == true)
    }

    @Test func registeringTwiceIsAnError() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        try withPair { a, _ throws in
            try queue.register(a.descriptor, interest: .readable, token: 1)
            #expect(throws: Errno(rawValue: 17)) {  // EEXIST
                try queue.register(a.descriptor, interest: .readable, token: 1)
            }
        }
    }

    @Test func bufferSmallerThanReadyCountReportsTheRestNextTime() throws {
        let queue = try EpollQueue(maxEventsPerWait: 2)
        defer { queue.close() }
        var pairs: [(Socket, Socket)] = []
        defer { for (a, b) in pairs { try? a.close(); try? b.close() } }
        for token in 0..<5 {
            let pair = try Socket.pair()
            pairs.append(pair)
            try queue.register(pair.0.descriptor, interest: .writable, token: UInt64(token))
        }
        var seen = Set<UInt64>()
        for _ in 0..<10 where seen.count < 5 {
            let events = try queue.wait(timeoutMillis: 10_000)
            #expect(events.count <= 2)
            for event in events {
                seen.insert(event.token)
                try queue.deregister(pairs[Int(event.token)].0.descriptor)
            }
        }
        #expect(seen == [0, 1, 2, 3, 4])
    }

    @Test func wakerWakesAWaitingQueueFromAnotherThread() throws {
        let queue = try EpollQueue()
        defer { queue.close() }
        let waker = try Waker()
        defer { try? waker.close() }
        try queue.register(waker.descriptor, interest: .readable, token: 99)
        #expect(try queue.wait(timeoutMillis: 0).isEmpty)

        let started = MonotonicClock.nowMilliseconds
        DispatchQueue.global().async { waker.wake() }
        let events = try queue.wait(timeoutMillis: 30_000)
        #expect(events.first?.token == 99)
        #expect(MonotonicClock.nowMilliseconds - started < 30_000)

        #expect(try waker.drain() >= 1)
        #expect(try queue.wait(timeoutMillis: 0).isEmpty)
        #expect(try waker.drain() == 0)
    }

    @Test func manyWakesCollapseIntoOne() throws {
        let waker = try Waker()
        defer { try? waker.close() }
        for _ in 0..<5 { waker.wake() }
        #expect(try waker.drain() == 5)
        #expect(try waker.drain() == 0)
    }
}
