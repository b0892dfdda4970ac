import Testing
@testable import PuzzleSystem

@Suite struct SocketPairTests {
    @Test func pairIsNonBlocking() throws {
        try withPair { a, b throws in
            #expect(try a.descriptor.isNonBlocking())
            #expect(try b.descriptor.isNonBlocking())
        }
    }

    @Test func gatheredSendArrivesInOrder() throws {
        try withPair { a, b throws in
            let result = try a.send([[1, 2, 3], [], [4, 5], [6]], firstBufferOffset: 1)
            #expect(result == .processed(5))
            #expect(try receive(b, count: 5) == [2, 3, 4, 5, 6])
        }
    }

    @Test func gatheredSendStopsAtMaxBuffersPerSend() throws {
        try withPair { a, b throws in
            let buffers = (0..<100).map { [UInt8($0)] }
            let result = try a.send(buffers)
            #expect(result == .processed(Socket.maxBuffersPerSend))
            #expect(try receive(b, count: Socket.maxBuffersPerSend) == (0..<UInt8(Socket.maxBuffersPerSend)).map { $0 })
        }
    }

    @Test func rawBufferSendAndReceiveInto() throws {
        try withPair { a, b throws in
            let message: [UInt8] = Array("ping".utf8)
            let sent = try message.withUnsafeBytes { try a.send($0) }
            #expect(sent == .processed(4))
            #expect(try waitFor(b.descriptor, .readable) != nil)
            var storage = [UInt8](repeating: 0, count: 16)
            let got = try storage.withUnsafeMutableBytes { try b.receive(into: $0) }
            #expect(got == .processed(4))
            #expect(Array(storage[..<4]) == message)
        }
    }

    @Test func emptyNonBlockingReadWouldBlock() throws {
        try withPair { _, b throws in
            var bytes: [UInt8] = [9]
            #expect(try b.receive(appendingTo: &bytes) == .wouldBlock)
            #expect(bytes == [9])
            #expect(try b.descriptor.read(appendingTo: &bytes) == .wouldBlock)
        }
    }

    @Test func fullSendBufferWouldBlock() throws {
        try withPair { a, _ throws in
            try a.setSendBufferSize(4096)
            let chunk = [UInt8](repeating: 0x61, count: 16 * 1024)
            var total = 0
            var blocked = false
            // The kernel minimum is a few KiB; 64 MiB without blocking means the
            // buffer limit is not working.
            while total < 64 * 1024 * 1024 {
                let result = try a.send(chunk)
                if result == .wouldBlock {
                    blocked = true
                    break
                }
                total += result.byteCount
            }
            #expect(blocked)
            #expect(total > 0)
        }
    }

    @Test func peerCloseGivesEOFAfterData() throws {
        try withPair { a, b throws in
            #expect(try a.send(Array("bye".utf8)) == .processed(3))
            try a.shutdown(.write)
            #expect(try receive(b, count: 3) == Array("bye".utf8))
            var rest: [UInt8] = []
            #expect(try b.receive(appendingTo: &rest) == .processed(0))
            #expect(rest.isEmpty)
        }
    }

    @Test func sendToClosedPeerIsBrokenPipeError() throws {
        let (a, b) = try Socket.pair()
        defer { try? a.close() }
        try b.close()
        #expect(throws: Errno.brokenPipe) { try a.send(Array("x".utf8)) }
    }

    @Test func plainWriteToClosedPeerIsBrokenPipeOnceSIGPIPEIsIgnored() throws {
        try Signals.ignoreBrokenPipe()
        let (a, b) = try Socket.pair()
        defer { try? a.close() }
        try b.close()
        #expect(throws: Errno.brokenPipe) { try a.descriptor.write(Array("x".utf8)) }
    }

    @Test func setNonBlockingToggles() throws {
        try withPair { a, _ throws in
            try a.descriptor.setNonBlocking(false)
            #expect(try a.descriptor.isNonBlocking() == false)
            try a.descriptor.setNonBlocking(true)
            #expect(try a.descriptor.isNonBlocking())
        }
    }

    @Test func pairAddressesAreUnix() throws {
        try withPair { a, _ throws in
            #expect(try a.localAddress().family == .unix)
        }
    }
}
