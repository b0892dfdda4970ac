import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleProtocol
@testable import PuzzleServer
@testable import PuzzleSystem

@Suite struct ServerSlowReaderTests {
    /// Reads `client`'s lines until the drag of piece 0 to (x, y); reports
    /// whether `marker` was seen on the way.
    private func drain(_ client: LineClient, untilDragTo x: Int, _ y: Int, noting marker: String) throws -> Bool {
        var seen = false
        while true {
            let line = try client.nextLine(timeout: 5)
            if line.hasSuffix(marker) { seen = true }
            if line.contains(" dragged 0 ") && line.contains(" \(x) \(y) ") { return seen }
        }
    }

    /// A server with a 4 KiB soft limit and small socket buffers, and a
    /// player there that has sent 300 SYNCs in one write (some 200 KB of
    /// snapshots asked for: many times any limit) and read none of them yet.
    private func pipelinedSyncs(_ configure: (inout ServerConfig) -> Void) throws -> (TestServer, LineClient, LogLines) {
        let log = LogLines()
        let server = try TestServer(log: log) {
            $0.logLevel = .warn
            $0.outputSoftLimit = 4096
            $0.socketSendBuffer = 4096
            configure(&$0)
        }
        let c = try LineClient(port: server.port, name: "pipeliner")
        try c.socket.setReceiveBufferSize(4096)
        _ = try c.enter(as: "pip")
        try c.sendRaw(Array(String(repeating: "SYNC\n", count: 300).utf8), deadline: 30)
        return (server, c, log)
    }

    /// A client that pipelines requests faster than it reads their answers
    /// is answered as fast as it reads (its lines wait, unread, while its
    /// output is over the soft limit), not cut as a slow reader for the
    /// answers it asked for (issue 31: 200 pipelined PICTUREs or LAYOUTs of a
    /// 100x100 were cut).
    @Test func aClientPipeliningMoreAnswersThanItReadsIsPacedNotCut() throws {
        let (server, c, log) = try pipelinedSyncs { $0.outputHardLimit = 16384 }
        defer { server.stop() }
        var synced = 0
        while synced < 300, try c.awaitReply(timeout: 30).reply.hasPrefix("OK sync ") { synced += 1 }
        #expect(synced == 300)
        #expect(replyFields(try c.request("STATS").reply)["slow_disconnects"] == "0")
        #expect(!log.lines.contains { $0.contains("slow reader") })
    }

    /// One that pipelines and never reads is still dropped: its answers wait
    /// over the soft limit past the grace.
    @Test func aPipeliningClientThatNeverReadsIsStillDropped() throws {
        let (server, pipeliner, log) = try pipelinedSyncs { $0.slowReaderGraceMillis = 300 }
        defer { server.stop() }
        // Open, never read: what a stalled client is.
        defer { pipeliner.close() }
        #expect(log.waitFor(timeout: 30) { $0.contains("disconnecting slow reader") && $0.contains("too slow for 300 ms") } != nil)
        let other = try LineClient(port: server.port)
        #expect(replyFields(try other.request("STATS").reply)["slow_disconnects"] == "1")
    }

    /// A client that stops reading while others keep dragging is disconnected;
    /// the others keep receiving in bounded time.
    @Test func readerThatStopsReadingIsDisconnectedOthersKeepGoing() throws {
        let server = try TestServer {
            $0.outputSoftLimit = 8 * 1024
            $0.outputHardLimit = 64 * 1024
            $0.slowReaderGraceMillis = 500
            $0.socketSendBuffer = 4096
            $0.dragRateLimit = 0
        }
        let slow = try LineClient(port: server.port, name: "slow")
        try slow.socket.setReceiveBufferSize(4096)
        let slowID = try slow.enter(as: "sloth")
        let dragger = try LineClient(port: server.port, name: "dragger"), watcher = try LineClient(port: server.port, name: "watcher")
        try dragger.enter(as: "dragger")
        try watcher.enter(as: "watcher")
        #expect(try dragger.request("GRAB 0").reply == "OK grabbed 0")
        // The slow client never reads again. Drag until the server gives up on it;
        // the watcher must see each round's last drag within the deadline.
        var leftSeen = false
        var round = 0
        let deadline = Date().addingTimeInterval(90)
        while !leftSeen && Date() < deadline {
            let last = (x: round % 25, y: 16)  // the 3x3 table's bottom edge
            let batch = (0..<200).map { "DRAG 0 \($0 % 25) \($0 % 8)\n" }.joined() + "DRAG 0 \(last.x) \(last.y)\n"
            try dragger.sendRaw(Array(batch.utf8))
            for _ in 0..<201 { _ = try dragger.awaitReply() }
            leftSeen = try drain(watcher, untilDragTo: last.x, last.y, noting: " left \(slowID)")
            round += 1
        }
        #expect(leftSeen, "the slow reader was never disconnected")
        let stats = replyFields(try watcher.request("STATS").reply)
        #expect(stats["slow_disconnects"] == "1")
        _ = try slow.waitForClose(timeout: 10)
    }

    /// Below the hard limit, a reader that falls behind gets its drags coalesced
    /// but every sequenced event, so it misses no move.
    @Test func coalescedReaderStillSeesEverySequencedEvent() throws {
        let server = try TestServer {
            $0.outputSoftLimit = 2 * 1024
            $0.outputHardLimit = 64 * 1024 * 1024
            $0.slowReaderGraceMillis = 600_000
            $0.socketSendBuffer = 4096
            $0.dragRateLimit = 0
        }
        let lagger = try LineClient(port: server.port, name: "lagger")
        try lagger.socket.setReceiveBufferSize(4096)
        try lagger.enter(as: "lagger")
        let d = try LineClient(port: server.port, name: "d")
        try d.enter(as: "d")
        var sent = 0
        var piece = 0
        let deadline = Date().addingTimeInterval(90)
        // Drag pieces in turn until the server reports coalescing for the lagger.
        while Date() < deadline {
            #expect(try d.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            let batch = (0..<500).map { "DRAG \(piece) \($0 % 25) \($0 % 9)\n" }.joined()
            try d.sendRaw(Array(batch.utf8))
            for _ in 0..<500 { _ = try d.awaitReply() }
            sent += 500
            #expect(try d.request("RELEASE").reply == "OK released \(piece)")
            piece = (piece + 1) % 9
            let st = try d.request("STATS").reply
            if Int(replyFields(st)["coalesced_drags"] ?? "0")! > 0 { break }
        }
        let expectedSeq = Int(replyFields(try d.request("DIGEST").reply)["seq"]!)!
        // Now read everything the lagger was sent: sequenced events contiguous.
        var lastSeq = -1, drags = 0
        while lastSeq < expectedSeq {
            let line = try lagger.nextLine(timeout: 10)
            guard line.hasPrefix("EV ") else { continue }
            let w = line.split(separator: " ")
            let seq = Int(w[1])!
            if w[2] == "dragged" { drags += 1; continue }
            if lastSeq >= 0 { #expect(seq == lastSeq + 1, "gap before \(line)") }
            lastSeq = seq
        }
        #expect(drags < sent, "drags were coalesced (\(drags) of \(sent) delivered)")
        #expect(try lagger.request("PING").reply == "PONG")
    }
}

@Suite struct ServerQuietSlowReaderTests {
    /// A member that stops reading after a burst, in a room that then goes
    /// quiet, is still disconnected once its grace period runs out (the loop's
    /// timer enforces it, not the next output), and its held piece goes back.
    @Test func slowReaderInAQuietRoomIsDisconnectedByTheTimer() throws {
        let server = try TestServer {
            // Above what one of the talker's batches queues (about 10 KB), far
            // below what the slow reader is sent (200 KB).
            $0.outputSoftLimit = 32 * 1024
            $0.outputHardLimit = 64 << 20
            $0.slowReaderGraceMillis = 1000
            $0.socketSendBuffer = 4096
            $0.chatRateLimit = 0
            // No lease may run out during the test: its event would be output.
            $0.leaseMillis = 600_000
        }
        let slow = try LineClient(port: server.port, name: "slow")
        try slow.socket.setReceiveBufferSize(4096)
        let slowID = try slow.enter(as: "sloth")
        #expect(try slow.request("GRAB 1").reply == "OK grabbed 1")
        let talker = try LineClient(port: server.port, name: "talker")
        try talker.enter(as: "talker")
        // The slow client never reads again. Chat lines are never coalesced, so
        // 200 KB of them leave its queue far over the soft limit whatever the
        // kernel buffers take. The talker reads as it goes (small batches), so
        // its own queue stays short. Then nothing more happens in the room.
        let text = String(repeating: "z", count: 1000)
        for _ in 0..<20 {
            try talker.sendRaw(Array(String(repeating: "SAY \(text)\n", count: 10).utf8))
            for _ in 0..<10 { #expect(try talker.awaitReply().reply == "OK said") }
            talker.events.removeAll { $0.contains(" say ") }
        }
        try talker.waitForEvent(timeout: 20) { $0.hasSuffix(" returned 1 \(slowID) left") }
        try talker.waitForEvent(timeout: 20) { $0.hasSuffix(" left \(slowID)") }
        #expect(replyFields(try talker.request("STATS").reply)["slow_disconnects"] == "1")
        #expect(try talker.request("GRAB 1").reply == "OK grabbed 1")
        _ = try slow.waitForClose(timeout: 20)
    }
}
