import Dispatch
import Glibc
import Testing
@testable import PuzzleSystem

@Suite struct TerminalWriterTests {
    private func nonBlockingPipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        return (fds[0], fds[1])
    }

    @Test func smallBufferIsWrittenWhole() throws {
        let (r, w) = nonBlockingPipe()
        defer { close(r); close(w) }
        try TerminalWriter(fd: w).writeAll(Array("frame".utf8))
        #expect(terminalTestRead(r, count: 5) == Array("frame".utf8))
    }

    @Test func largeBufferWaitsForWritability() throws {
        // Far more than a pipe holds (64 KiB), so the writer must hit EAGAIN and poll.
        let (r, w) = nonBlockingPipe()
        defer { close(r); close(w) }
        let payload = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let received = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var got: [UInt8] = []  // written by the reader, read after the semaphore
        DispatchQueue.global().async {
            got = terminalTestRead(r, count: payload.count, timeoutMilliseconds: 20_000)
            received.signal()
        }
        try TerminalWriter(fd: w).writeAll(payload, timeoutMilliseconds: 20_000)
        #expect(received.wait(timeout: .now() + 30) == .success)
        #expect(got == payload)
    }

    @Test func stalledReaderTimesOut() throws {
        let (r, w) = nonBlockingPipe()
        defer { close(r); close(w) }
        let payload = [UInt8](repeating: 0x41, count: 1 << 20)
        do {
            try TerminalWriter(fd: w).writeAll(payload, timeoutMilliseconds: 50)
            Issue.record("a 1 MiB write into an unread pipe cannot complete")
        } catch {
            guard case .timedOut(let written) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(written > 0)
            #expect(written < payload.count)
        }
    }

    @Test func writeErrorsAreReported() {
        // A descriptor that can never be open: a closed one's number may be taken at once by
        // another test's socket or pipe on another thread, and the bytes would go there.
        #expect(throws: TerminalError.system(call: "write", errno: .badFileDescriptor)) {
            try TerminalWriter(fd: -1).writeAll([1, 2, 3])
        }
    }
}
