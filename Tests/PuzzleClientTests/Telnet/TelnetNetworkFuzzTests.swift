import Foundation
import Testing
import PuzzleCore
import PuzzleLink
import PuzzleServer
import PuzzleSystem
import PuzzleTelnet
import PuzzleTestSupport

/// Telnet sessions as real clients send them (negotiation answers, window sizes, terminal
/// types, a name, keys, mouse reports, chat, commands), mutated (bytes flipped, IACs and
/// subnegotiation starts dropped in, pieces cut, repeated or flooded with 0xFF, writes
/// split anywhere, closes at any point) and sent over many connections at once to a real
/// server's telnet port. Afterwards a new telnet player must be able to log in and be seen
/// by a TCP player, the server must answer PING promptly, and every fuzzing session must
/// be gone. Fixed seeds: a failure replays with the same bytes.
@Suite struct TelnetNetworkFuzzTests {
    static let sessionCount = 160
    static let concurrent = 16
    static let seed: UInt64 = 30

    /// What one client sends, before mutation.
    static func script(_ i: Int) -> [UInt8] {
        let iac = TelnetByte.iac
        var s: [UInt8] = [iac, TelnetByte.do, 1, iac, TelnetByte.do, 3, iac, TelnetByte.will, 3, iac, TelnetByte.do, 0, iac, TelnetByte.will, 0,
                          iac, TelnetByte.will, 31] + TelnetTestClient.naws(80 + i % 50, 24 + i % 20)
        s += [iac, TelnetByte.will, 24] + TelnetEncoder.subnegotiation(24, [0] + Array(["XTERM-256COLOR", "ANSI", "dumb", "xterm-direct"][i % 4].utf8))
        s += Array("fz\(i)\r\0".utf8)
        s += Array("\t\u{1B}[C\u{1B}[B\r\u{1B}[<0;20;8M\u{1B}[<32;24;10M\u{1B}[<0;24;10m\u{12}hello\r/who\r\u{1B}\u{1B}[1;5A/board\r\u{1B}".utf8)
        s += TelnetTestClient.naws(i % 3 == 0 ? 0 : 10_000, 7)
        return s
    }

    static func mutate(_ bytes: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var b = bytes
        for _ in 0..<Int(rng.next() % 6) {
            guard !b.isEmpty else { break }
            let at = Int(rng.next() % UInt64(b.count))
            switch rng.next() % 7 {
            case 0: b[at] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            case 1: b.insert(TelnetByte.iac, at: at)
            case 2: b.insert(contentsOf: [TelnetByte.iac, TelnetByte.sb, UInt8(truncatingIfNeeded: rng.next())], at: at)
            case 3: b.removeSubrange(at..<min(b.count, at + Int(rng.next() % 16)))
            case 4: b.insert(contentsOf: [UInt8](repeating: TelnetByte.iac, count: Int(rng.next() % 5000)), at: at)
            case 5: b.insert(contentsOf: b[at..<min(b.count, at + 40)], at: at)
            default: b = Array(b[..<at])  // the client goes mid-way
            }
        }
        return b
    }

    @Test func mutatedTelnetSessionsLeaveTheGatewayServing() throws {
        let server = try TestServer { c in
            c.telnetPort = .port(0)
            c.telnetMaxSessions = 64
            c.maxConnectionsPerAddress = 0
            c.leaseMillis = 1000
            c.fsync = .never
        }
        defer { server.stop() }
        let port = try #require(server.server.telnetPort)
        var rng = SeededGenerator(seed: Self.seed)
        var sent = 0, received = 0
        var next = 0
        while next < Self.sessionCount {
            // One batch of clients, each writing its bytes in random pieces and reading
            // whatever comes back between them; then they all go.
            var batch: [(Socket, [UInt8])] = []
            for _ in 0..<Self.concurrent where next < Self.sessionCount {
                let bytes = Self.mutate(Self.script(next), using: &rng)
                batch.append((try Socket.connect(host: "127.0.0.1", port: UInt16(port), timeoutMillis: 5000), bytes))
                next += 1
            }
            // Event-driven (a spinning sender would starve the gateway's low-priority threads):
            // write a random piece when a socket takes it, read whatever comes, until every
            // client has sent all and heard something (its opening at least) or was closed.
            let queue = try EpollQueue(maxEventsPerWait: 32)
            defer { queue.close() }
            for (i, (socket, _)) in batch.enumerated() { try queue.register(socket.descriptor, interest: .both, token: UInt64(i)) }
            var offsets = [Int](repeating: 0, count: batch.count)
            var heard = [Bool](repeating: false, count: batch.count)
            var done = [Bool](repeating: false, count: batch.count)
            let deadline = Date().addingTimeInterval(30)
            while done.contains(false) && Date() < deadline {
                for e in try queue.wait(timeoutMillis: 100) {
                    let i = Int(e.token)
                    let (socket, bytes) = batch[i]
                    if e.readable || e.hangup || e.error {
                        var sink: [UInt8] = []
                        while true {
                            switch try? socket.receive(appendingTo: &sink, maxBytes: 1 << 16) {
                            case .processed(let n)? where n > 0:
                                received += n
                                heard[i] = true
                                sink.removeAll(keepingCapacity: true)
                                continue
                            case .wouldBlock?: break
                            default:  // closed by the gateway, or reset
                                heard[i] = true
                                offsets[i] = bytes.count
                            }
                            break
                        }
                    }
                    if e.writable && offsets[i] < bytes.count {
                        let end = min(bytes.count, offsets[i] + 1 + Int(rng.next() % 300))
                        switch try? bytes[offsets[i]..<end].withUnsafeBytes({ b in Result { () throws(Errno) in try socket.send(b) } }).get() {
                        case .processed(let n)?: offsets[i] += n; sent += n
                        case nil: offsets[i] = bytes.count
                        default: break
                        }
                        if offsets[i] == bytes.count { try? queue.modify(socket.descriptor, interest: .readable, token: e.token) }
                    }
                    if offsets[i] == bytes.count && heard[i] && !done[i] {
                        done[i] = true
                        try? queue.deregister(socket.descriptor)
                    }
                }
            }
            #expect(!done.contains(false), "sessions that never answered: \(done.indices.filter { !done[$0] })")
            for (socket, _) in batch {
                // Half reset, half closed cleanly (abort closes too).
                if rng.next() % 2 == 0 { try? socket.abort() } else { try? socket.close() }
            }
        }
        #expect(sent > Self.sessionCount * 100 && received > 0, "sent \(sent), received \(received)")

        // Still serving: a TCP player, and a telnet player it sees join and grab.
        let watcher = try LineClient(port: server.port, name: "watcher")
        let asked = Date()
        #expect(try watcher.request("PING still-here", timeout: 5).reply == "PONG still-here")
        #expect(Date().timeIntervalSince(asked) < 2)
        try watcher.enter(as: "watcher")
        let client = try TelnetTestClient(port: port)
        try client.waitForScreen("your name:")
        try client.type("after\r")
        let joined = try watcher.waitForEvent(timeout: 20) { $0.contains(" joined ") && $0.contains(" after") }
        let id = joined.split(separator: " ")[3]
        try client.waitForScreen("joined lobby as after")
        try client.type("\t")
        try watcher.waitForEvent(timeout: 20) { $0.contains(" grabbed ") && $0.hasSuffix(" \(id)") }
        // Every fuzzing session ended, on the gateway and in the server.
        let end = Date().addingTimeInterval(15)
        while server.server.telnetSessionCount != 1 && Date() < end { client.pump(timeout: 0.05) }
        #expect(server.server.telnetSessionCount == 1, "\(server.server.telnetSessionCount ?? -1) telnet sessions left")
    }
}
