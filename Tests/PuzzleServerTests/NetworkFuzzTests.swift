import PuzzleLink
import Foundation
import Testing
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
import PuzzleTestSupport
@testable import PuzzleServer

/// The example sessions of `Protocol/examples`, mutated (lines dropped,
/// duplicated, swapped, bytes flipped, huge numbers, invalid UTF-8, NUL bytes,
/// over-long lines, writes split anywhere, abrupt closes and half-closes), sent
/// by many connections at once to a real server. Afterwards a new connection
/// must be answered promptly, every fuzzing connection must be gone from the
/// server, and its memory must not have run away.
///
/// Everything sent comes from fixed seeds and a fixed number of sessions, so a
/// failure replays with the same bytes (only the interleaving differs).
@Suite struct NetworkFuzzTests {
    static let sessionCount = 600
    static let concurrentConnections = 32
    static let mutationSeed: UInt64 = 2026
    static let serverSeed: UInt64 = 7
    static let maxLineLength = 128

    @Test func mutatedExampleSessionsLeaveTheServerAnsweringWithBoundedMemory() throws {
        let transcripts = try TranscriptTests.exampleNames().map(TranscriptTests.load)
        // What each client of each example sends, line by line.
        var scripts: [[[UInt8]]] = []
        for transcript in transcripts {
            let clients = Set(transcript.steps.map(\.client)).sorted()
            for client in clients {
                scripts.append(transcript.steps.compactMap { step in
                    if step.client == client, case .send(let bytes) = step.action { return bytes }
                    return nil
                })
            }
        }
        var rooms: [RoomSpec] = []
        for room in transcripts.flatMap(\.rooms) where !rooms.contains(where: { $0.name == room.name }) { rooms.append(room) }
        #expect(scripts.count >= 6 && !rooms.isEmpty)

        var rng = SeededGenerator(seed: Self.mutationSeed)
        let sessions = (0..<Self.sessionCount).map { _ in
            FuzzedSession(script: scripts[Int(rng.next() % UInt64(scripts.count))], maxLineLength: Self.maxLineLength, using: &rng)
        }

        let server = try TestServer(rooms: rooms, seed: Self.serverSeed) { config in
            config.maxLineLength = Self.maxLineLength
            config.fsync = .never
            // A version 2 session cut short stays in its room for one lease: a
            // short one, so that the rooms are empty well before the check below.
            config.leaseMillis = 1000
        }
        defer { server.stop() }
        let residentBefore = try ProcessStats.residentBytes()

        var driver = try SessionDriver(port: server.port, sessions: sessions, concurrency: Self.concurrentConnections)
        try driver.run(deadline: Date().addingTimeInterval(120))
        let traffic = "\(driver.finished) sessions, \(driver.bytesSent) bytes sent, \(driver.bytesReceived) received, \(driver.closedByServer) closed by the server"
        #expect(driver.finished == Self.sessionCount && driver.bytesReceived > driver.bytesSent / 2, "\(traffic)")

        // Promptly answered: the server is not stuck on anything the fuzzing left behind.
        let probe = try LineClient(port: server.port, name: "probe")
        let asked = Date()
        let pong = try probe.request("PING still-here", timeout: 5).reply
        #expect(pong == "PONG still-here")
        #expect(Date().timeIntervalSince(asked) < 2, "PING took \(Date().timeIntervalSince(asked)) s")

        // Every fuzzing connection is closed on the server's side too (closes are
        // seen asynchronously, so ask until a deadline), and nobody is left in a room.
        var stats: [String: String] = [:]
        let deadline = Date().addingTimeInterval(10)
        repeat {
            stats = replyFields(try probe.request("STATS").reply)
        } while (stats["connections"] != "1" || stats["players"] != "0") && Date() < deadline
        #expect(stats["connections"] == "1" && stats["players"] == "0", "after fuzzing: \(stats)")

        // Generous: the process also runs other tests; a server that kept what it
        // was sent, or queued output without limit, would pass this many times over.
        let residentAfter = try ProcessStats.residentBytes()
        #expect(residentAfter - residentBefore < 256 << 20, "resident memory grew from \(residentBefore >> 20) MiB to \(residentAfter >> 20) MiB")
    }
}

/// One connection's worth of mutated bytes and how it ends.
struct FuzzedSession {
    enum Ending {
        /// Close once everything is sent, without reading the replies.
        case close
        /// Reset the connection (SO_LINGER 0) once everything is sent.
        case abort
        /// Shut down the sending side and read until the server closes.
        case halfClose
        /// Stop part-way through the bytes, maybe mid-line, and reset.
        case cutShort
    }

    /// The bytes, already cut into the writes that send them.
    var writes: [[UInt8]]
    var ending: Ending

    init(script: [[UInt8]], maxLineLength: Int, using rng: inout SeededGenerator) {
        func roll(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var lines = script
        for _ in 0..<roll(6) where !lines.isEmpty {
            let i = roll(lines.count)
            switch roll(11) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            case 2: if i + 1 < lines.count { lines.swapAt(i, i + 1) }
            case 3: if !lines[i].isEmpty { lines[i][roll(lines[i].count)] ^= UInt8(1 + roll(255)) }
            case 4: lines[i] = Self.withHugeNumber(lines[i], using: &rng)
            case 5: lines[i].insert(contentsOf: [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]][roll(4)], at: roll(lines[i].count + 1))
            case 6: lines[i].insert(0, at: roll(lines[i].count + 1))
            case 7: lines.insert(Array(repeating: UInt8(ascii: "A"), count: maxLineLength + 1 + roll(maxLineLength * 64)), at: i)
            case 8: lines[i] += [UInt8(ascii: "\r")]
            case 9: lines[i] = Array(lines[i].prefix(roll(lines[i].count + 1)))
            default: lines.insert(Self.randomRequest(using: &rng), at: i)
            }
        }
        var stream: [UInt8] = []
        for line in lines { stream += line + [UInt8(ascii: "\n")] }
        // Half the sessions read every answer, so the server parses and answers
        // everything they sent; the others leave while it may still be working.
        ending = [.halfClose, .halfClose, .halfClose, .close, .abort, .cutShort][roll(6)]
        if ending == .cutShort { stream = Array(stream.prefix(roll(stream.count + 1))) }
        writes = []
        var offset = 0
        let allAtOnce = roll(3) == 0
        while offset < stream.count {
            let size = allAtOnce ? stream.count : 1 + roll(300)
            writes.append(Array(stream[offset..<min(stream.count, offset + size)]))
            offset += size
        }
    }

    /// The first number in the line (or a new last word) replaced by one out of
    /// range: just past the boards' piece counts and sizes, at the parser's
    /// limits, past 32 bits, at Int's edges and past them.
    static func withHugeNumber(_ line: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        let numbers = ["4", "9", "16", "101", "1000000", "1000001", "-1", "4294967296",
                       "9223372036854775807", "-9223372036854775808", "99999999999999999999999"]
        let huge = numbers[Int(rng.next() % UInt64(numbers.count))]
        guard let start = line.firstIndex(where: { (0x30...0x39).contains($0) }) else { return line + Array(" \(huge)".utf8) }
        let end = line[start...].firstIndex { !(0x30...0x39).contains($0) } ?? line.endIndex
        return Array(line[..<start]) + Array(huge.utf8) + Array(line[end...])
    }

    /// A request line of any verb with 0-3 random words, most of them numbers.
    static func randomRequest(using rng: inout SeededGenerator) -> [UInt8] {
        let verbs = Request.usage.keys.sorted() + ["BYE", "EXIT", "GET", "grab", "x"]
        var line = verbs[Int(rng.next() % UInt64(verbs.count))]
        for _ in 0..<Int(rng.next() % 4) {
            line += " " + (rng.next() % 4 == 0 ? "lobby" : String(Int(rng.next() % 40) - 8))
        }
        return Array(line.utf8)
    }
}

/// Runs sessions over a fixed number of simultaneous connections from one
/// thread: sends each session's writes as the socket takes them, reads and
/// discards whatever the server answers (so it never sees a slow reader unless
/// a session stops reading), and starts the next session when one ends.
struct SessionDriver {
    struct Slot {
        var socket: Socket
        var session: FuzzedSession
        var nextWrite = 0
        var offset = 0
        /// Sent everything and shut down the sending side; waiting for the server to close.
        var halfClosed = false
        /// Already closed (reset), and so out of the epoll set.
        var closed = false
    }

    let port: Int
    var pending: [FuzzedSession]
    var slots: [Int: Slot] = [:]
    let queue: EpollQueue
    var nextToken: UInt64 = 1
    private(set) var finished = 0
    private(set) var bytesSent = 0
    private(set) var bytesReceived = 0
    /// Sessions the server ended before they were over (HTTP first line, slow reader).
    private(set) var closedByServer = 0
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init(port: Int, sessions: [FuzzedSession], concurrency: Int) throws {
        self.port = port
        pending = sessions.reversed()
        queue = try EpollQueue()
        for _ in 0..<concurrency { try startNext() }
    }

    mutating func startNext() throws {
        guard let session = pending.popLast() else { return }
        let socket = try Socket.connect(host: "127.0.0.1", port: UInt16(port), timeoutMillis: 5000)
        let token = nextToken
        nextToken += 1
        try queue.register(socket.descriptor, interest: .both, token: token)
        slots[Int(token)] = Slot(socket: socket, session: session)
    }

    mutating func run(deadline: Date) throws {
        while !slots.isEmpty {
            guard Date() < deadline else {
                throw LineClient.Timeout(description: "network fuzz: \(slots.count + pending.count) sessions unfinished at the deadline")
            }
            for event in try queue.wait(timeoutMillis: 100) {
                let token = Int(event.token)
                guard slots[token] != nil else { continue }
                let open = try service(token)
                if !open {
                    let slot = slots.removeValue(forKey: token)!
                    if !slot.closed {
                        try? queue.deregister(slot.socket.descriptor)
                        try? slot.socket.close()
                    }
                    finished += 1
                    try startNext()
                }
            }
        }
    }

    /// Moves one connection along; false when its session is over.
    private mutating func service(_ token: Int) throws -> Bool {
        var slot = slots[token]!
        defer { slots[token] = slot }
        // Read first: the server may have closed us (an HTTP line, BYE SLOW).
        while true {
            let result: IOResult
            do {
                result = try scratch.withUnsafeMutableBytes { buffer throws(Errno) in try slot.socket.receive(into: buffer) }
            } catch {
                return false
            }
            if case .processed(let n) = result {
                bytesReceived += n
                if n == 0 {
                    if !slot.halfClosed { closedByServer += 1 }
                    return false
                }
                continue
            }
            break
        }
        if slot.halfClosed { return true }
        while slot.nextWrite < slot.session.writes.count {
            let write = slot.session.writes[slot.nextWrite]
            let result: IOResult
            do {
                result = try write[slot.offset...].withUnsafeBytes { bytes throws(Errno) in try slot.socket.send(bytes) }
            } catch {
                return false
            }
            guard case .processed(let n) = result else { return true }
            slot.offset += n
            bytesSent += n
            if slot.offset == write.count { slot.nextWrite += 1; slot.offset = 0 }
        }
        switch slot.session.ending {
        case .close:
            return false
        case .abort, .cutShort:
            try? queue.deregister(slot.socket.descriptor)
            try? slot.socket.abort()
            slot.closed = true
            return false
        case .halfClose:
            try? slot.socket.shutdown(.write)
            slot.halfClosed = true
            try queue.modify(slot.socket.descriptor, interest: .readable, token: UInt64(token))
            return true
        }
    }
}
