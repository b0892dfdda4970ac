import Testing
@testable import PuzzleSystem

/// Whether this machine can listen on IPv6 loopback (containers often cannot).
func ipv6LoopbackAvailable() -> Bool {
    guard let probe = try? Socket.listen(host: "::1", port: 0) else { return false }
    try? probe.close()
    return true
}

@Suite struct TCPSocketTests {
    /// Connects a client to `listener` and returns (client, accepted, peer).
    private func connectPair(_ listener: Socket, host: String) throws -> (Socket, Socket, String) {
        let client = try Socket.connect(host: host, port: try listener.localPort, timeoutMillis: 10_000)
        guard try waitFor(listener.descriptor, .readable) != nil else {
            try? client.close()
            throw TestFailure(description: "no connection to accept")
        }
        guard case .accepted(let server, let peer) = try listener.accept() else {
            try? client.close()
            throw TestFailure(description: "accept would block after readiness")
        }
        return (client, server, peer.description)
    }

    @Test func ephemeralListenerReportsPortAndAccepts() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { try? listener.close() }
        let port = try listener.localPort
        #expect(port != 0)
        #expect(try listener.localAddress() == SocketAddress(family: .ipv4, host: "127.0.0.1", port: port))
        #expect(try listener.accept().isWouldBlock)

        let (client, server, peer) = try connectPair(listener, host: "127.0.0.1")
        defer { try? client.close(); try? server.close() }
        #expect(peer == "127.0.0.1:\(try client.localPort)")
        #expect(try server.descriptor.isNonBlocking())
        #expect(try client.descriptor.isNonBlocking())
        #expect(try client.peerAddress().port == port)

        try client.setNoDelay()
        try server.setNoDelay()
        try sendAll(client, Array("hello server\n".utf8))
        #expect(try receive(server, count: 13) == Array("hello server\n".utf8))
        #expect(try server.send([Array("hi ".utf8), Array("client".utf8)]) == .processed(9))
        #expect(try receive(client, count: 9) == Array("hi client".utf8))
    }

    @Test func localhostAndAnyAddressWork() throws {
        let listener = try Socket.listen(host: "0.0.0.0", port: 0, backlog: 8)
        defer { try? listener.close() }
        let (client, server, peer) = try connectPair(listener, host: "localhost")
        defer { try? client.close(); try? server.close() }
        #expect(peer.hasPrefix("127.0.0.1:"))
    }

    @Test func largeTransferSurvivesPartialWrites() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { try? listener.close() }
        let (client, server, _) = try connectPair(listener, host: "127.0.0.1")
        defer { try? client.close(); try? server.close() }
        try client.setSendBufferSize(8 * 1024)
        try server.setReceiveBufferSize(8 * 1024)
        #expect(try client.sendBufferSize() > 0)
        #expect(try server.receiveBufferSize() > 0)
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // Interleave: send what fits, drain what arrived, until all is through.
        var received: [UInt8] = []
        var offset = 0
        let deadline = MonotonicClock.nowMilliseconds + 20_000
        while received.count < payload.count, MonotonicClock.nowMilliseconds < deadline {
            if offset < payload.count, case .processed(let n) = try client.send([payload], firstBufferOffset: offset) {
                offset += n
            }
            if case .wouldBlock = try server.receive(appendingTo: &received) {
                _ = try waitFor(server.descriptor, .readable, timeoutMillis: 50)
            }
        }
        #expect(received == payload)
    }

    @Test func writeShutdownGivesPeerEOFAndHangup() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { try? listener.close() }
        let (client, server, _) = try connectPair(listener, host: "127.0.0.1")
        defer { try? client.close(); try? server.close() }
        try client.shutdown(.write)
        let event = try waitFor(server.descriptor, .readable)
        #expect(event?.hangup == true)
        var bytes: [UInt8] = []
        #expect(try server.receive(appendingTo: &bytes) == .processed(0))
    }

    @Test func sendingToAClosedConnectionIsATypedError() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { try? listener.close() }
        let (client, server, _) = try connectPair(listener, host: "127.0.0.1")
        defer { try? client.close() }
        try server.close()
        // The first send may still succeed (the peer answers it with RST);
        // a later one must fail with EPIPE or ECONNRESET, not SIGPIPE.
        var failure: Errno?
        let deadline = MonotonicClock.nowMilliseconds + 10_000
        while failure == nil, MonotonicClock.nowMilliseconds < deadline {
            do {
                _ = try client.send(Array("ping".utf8))
                _ = try waitFor(client.descriptor, .readable, timeoutMillis: 100)
            } catch let error as Errno {
                failure = error
            }
        }
        #expect(failure == .brokenPipe || failure == .connectionReset)
    }

    @Test func connectToClosedPortIsRefused() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = try listener.localPort
        try listener.close()
        #expect(throws: Errno.connectionRefused) {
            try Socket.connect(host: "127.0.0.1", port: port, timeoutMillis: 10_000)
        }
    }

    @Test func unparsableHostIsInvalidArgument() {
        #expect(throws: Errno.invalidArgument) { try Socket.listen(host: "example.invalid", port: 0) }
        #expect(throws: Errno.invalidArgument) { try Socket.connect(host: "1.2.3", port: 1) }
    }

    @Test func bindingABusyPortIsAddressInUse() throws {
        let first = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { try? first.close() }
        #expect(throws: Errno.addressInUse) { try Socket.listen(host: "127.0.0.1", port: try first.localPort) }
    }

    @Test(.enabled(if: ipv6LoopbackAvailable(), "IPv6 loopback not available"))
    func ipv6LoopbackListenerAccepts() throws {
        let listener = try Socket.listen(host: "::1", port: 0)
        defer { try? listener.close() }
        #expect(try listener.localAddress().family == .ipv6)
        let (client, server, peer) = try connectPair(listener, host: "[::1]")
        defer { try? client.close(); try? server.close() }
        #expect(peer.hasPrefix("[::1]:"))
        try sendAll(client, [1, 2, 3])
        #expect(try receive(server, count: 3) == [1, 2, 3])
    }

    @Test(.enabled(if: ipv6LoopbackAvailable(), "IPv6 loopback not available"))
    func ipv6AnyAddressListens() throws {
        let listener = try Socket.listen(host: "::", port: 0)
        defer { try? listener.close() }
        let (client, server, _) = try connectPair(listener, host: "::1")
        try? client.close()
        try? server.close()
    }
}

extension Socket.AcceptResult {
    var isWouldBlock: Bool {
        if case .wouldBlock = self { return true }
        return false
    }
}
