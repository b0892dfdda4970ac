import Foundation
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import PuzzleWeb
import Testing
@testable import PuzzleServer

/// Browsers in a room over real sockets: each broadcast is framed once and
/// shared, so every browser must get the same frames, one text message per
/// line, with its own replies in their place and a slow browser's drags still
/// coalesced.
@Suite struct WebSocketBroadcastTests {
    /// An expected message that did not come.
    struct Missing: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// An upgraded, greeted browser in `lobby`; returns it and its id.
    private func browser(_ server: TestServer, name: String) throws -> (RawWebClient, Int) {
        let web = try RawWebClient(port: server.port)
        #expect(try web.upgrade().status == 101)
        try web.sendLine("HELLO 2 \(name)")
        let hello = try web.line(startingWith: "OK hello")
        guard case .hello(_, let id, _, _)? = ReplyCodec.decode(hello[...]) else { throw Missing(hello) }
        try web.sendLine("JOIN lobby")
        _ = try web.lines(through: "OK joined lobby")
        return (web, id.rawValue)
    }

    /// Text messages from the one after the first that has `from` through the
    /// first that has `through`, as frames (fin, opcode and payload each).
    private func frames(_ web: RawWebClient, after from: String, through: String) throws -> [WebSocketFrame] {
        let end = Date().addingTimeInterval(20)
        var started = false
        var seen: [WebSocketFrame] = []
        while Date() < end {
            let f = try web.frame(timeout: 10)
            let text = String(decoding: f.payload, as: UTF8.self)
            if started { seen.append(f) } else if text.contains(from) { started = true; continue }
            if started && text.contains(through) { return seen }
        }
        throw Missing("'\(through)' not seen")
    }

    @Test func everyBrowserGetsTheSameFramesForEachBroadcast() throws {
        let server = try TestServer { $0.dragRateLimit = 0; $0.chatRateLimit = 0 }
        let browsers = try (0..<3).map { try browser(server, name: "web\($0)").0 }
        let observer = try LineClient(port: server.port, name: "observer")
        try observer.enter(as: "olga")
        let driver = try LineClient(port: server.port, name: "driver")
        let driverID = try driver.enter(as: "dora")
        // Lines of each length form a frame can take below 64 KiB: short
        // events, and chat of 126 bytes and more.
        #expect(try driver.request("GRAB 0").reply == "OK grabbed 0")
        for i in 0..<40 { try driver.send("DRAG 0 \(i % 20) \(i % 7)") }
        for _ in 0..<40 { _ = try driver.awaitReply() }
        #expect(try driver.request("SAY " + String(repeating: "long ", count: 60)).reply == "OK said")
        #expect(try driver.request("RELEASE").reply == "OK released 0")
        #expect(try driver.request("SAY the end").reply == "OK said")

        // The TCP observer's lines from the driver's join to its last word.
        var expected: [String] = []
        var started = false
        while expected.last?.hasSuffix("say \(driverID) the end") != true {
            let line = try observer.nextLine()
            if started { expected.append(line) } else if line.contains(" joined \(driverID) ") { started = true }
        }
        #expect(expected.count == 44)
        let streams = try browsers.map { try frames($0, after: " joined \(driverID) ", through: "say \(driverID) the end") }
        for stream in streams {
            #expect(stream.allSatisfy { $0.fin && $0.opcode == .text })
            #expect(stream.map { String(decoding: $0.payload, as: UTF8.self) } == expected)
        }
        #expect(streams.allSatisfy { $0 == streams[0] })
        #expect(streams[0].contains { $0.payload.count >= 126 })
    }

    /// A browser's pipelined requests: each reply comes after the event its
    /// request caused and before the next request's, as on a TCP connection,
    /// and the events are the ones a TCP member gets, in the same order.
    @Test func repliesInterleaveWithTheRoomsEventsInOrder() throws {
        let server = try TestServer { $0.dragRateLimit = 0; $0.chatRateLimit = 0 }
        let observer = try LineClient(port: server.port, name: "observer")
        try observer.enter(as: "olga")
        let (web, id) = try browser(server, name: "wes")
        _ = try observer.waitForEvent { $0.contains(" joined \(id) ") }
        let requests = ["GRAB 3"] + (1...5).map { "DRAG 3 \($0) \($0 + 1)" } + ["SAY hi", "PING p", "RELEASE"]
        try web.send(requests.flatMap { RawWebClient.frame(.text, Array($0.utf8)) })
        var got: [String] = []
        while got.last?.hasPrefix("OK released") != true {
            let f = try web.frame()
            #expect(f.fin && f.opcode == .text)
            got.append(String(decoding: f.payload, as: UTF8.self))
        }
        let shapes = got.map { line -> String in
            let w = line.split(separator: " ")
            return w[0] == "EV" ? "EV " + w[2...].joined(separator: " ") : line
        }
        var expected = ["EV grabbed 3 \(id)", "OK grabbed 3"]
        for i in 1...5 {
            expected.append("EV dragged 3 \(id) \(i) \(i + 1) -")
            expected.append("OK dragged 3 \(i) \(i + 1) -")
        }
        expected += ["EV say \(id) hi", "OK said", "PONG p", "EV released 3 \(id)", "OK released 3"]
        #expect(shapes == expected)
        let events = got.filter { $0.hasPrefix("EV ") }
        var observed: [String] = []
        while observed.count < events.count { observed.append(try observer.nextLine()) }
        #expect(observed == events)
    }

    /// A browser that falls behind gets its drags coalesced like a TCP
    /// member, every sequenced event still in order, and each line still one
    /// whole text message.
    @Test func aSlowBrowserStillGetsItsDragsCoalesced() throws {
        let server = try TestServer {
            $0.outputSoftLimit = 2 * 1024
            $0.outputHardLimit = 64 * 1024 * 1024
            $0.slowReaderGraceMillis = 600_000
            $0.socketSendBuffer = 4096
            $0.dragRateLimit = 0
        }
        let (lagger, _) = try browser(server, name: "lagger")
        try lagger.setReceiveBufferSize(4096)
        let d = try LineClient(port: server.port, name: "d")
        try d.enter(as: "d")
        var sent = 0, piece = 0
        let deadline = Date().addingTimeInterval(90)
        // Drag pieces in turn until the server reports coalescing (the lagger reads nothing meanwhile).
        while Date() < deadline {
            #expect(try d.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            try d.sendRaw(Array((0..<500).map { "DRAG \(piece) \($0 % 25) \($0 % 9)\n" }.joined().utf8))
            for _ in 0..<500 { _ = try d.awaitReply() }
            sent += 500
            #expect(try d.request("RELEASE").reply == "OK released \(piece)")
            piece = (piece + 1) % 9
            if Int(replyFields(try d.request("STATS").reply)["coalesced_drags"] ?? "0")! > 0 { break }
        }
        let expectedSeq = Int(replyFields(try d.request("DIGEST").reply)["seq"]!)!
        var lastSeq = -1, drags = 0
        while lastSeq < expectedSeq {
            let f = try lagger.frame()
            #expect(f.fin && f.opcode == .text && !f.payload.contains(0x0A))
            let line = String(decoding: f.payload, as: UTF8.self)
            guard line.hasPrefix("EV ") else { continue }
            let w = line.split(separator: " ")
            if w[2] == "dragged" { drags += 1; continue }
            let seq = Int(w[1])!
            if lastSeq >= 0 { #expect(seq == lastSeq + 1, "gap before \(line)") }
            lastSeq = seq
        }
        #expect(drags < sent, "drags were coalesced (\(drags) of \(sent) delivered)")
        try lagger.sendLine("PING still")
        #expect(try lagger.line(startingWith: "PONG") == "PONG still")
    }
}
