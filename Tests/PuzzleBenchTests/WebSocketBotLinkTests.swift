import PuzzleSystem
import PuzzleWeb
import Testing
@testable import PuzzleBench

/// A `--websocket` bot's framing, checked against the server's own frame
/// decoder (which insists on masks and shortest lengths): the upgrade first,
/// lines held until its `101`, then one masked text frame per line; server
/// frames read in place across reads; pings answered.
@Suite struct WebSocketBotLinkTests {
    /// What `flush` put on the wire, read off the other end of a socket pair.
    private func flushed(_ link: WebSocketBotLink, _ lines: inout [UInt8]) throws -> [UInt8] {
        let (a, b) = try Socket.pair()
        defer { try? a.close(); try? b.close() }
        #expect(link.flush(lines: &lines, to: a))
        var got: [UInt8] = []
        while case .processed(let n) = try b.receive(appendingTo: &got), n > 0 {}
        return got
    }

    private func response(_ link: WebSocketBotLink, accept: String? = nil) -> [UInt8] {
        Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept ?? link.expectedAccept)\r\n\r\n".utf8)
    }

    private func decode(_ bytes: [UInt8]) -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder(maxPayload: 4096)
        decoder.append(bytes)
        var frames: [WebSocketFrame] = []
        while case .success(let f?) = decoder.next() { frames.append(f) }
        #expect(decoder.bufferedByteCount == 0)
        return frames
    }

    @Test func upgradesThenSendsEachLineAsOneMaskedTextFrame() throws {
        let link = WebSocketBotLink(host: "127.0.0.1", port: 7171, seed: 3)
        var lines = Array("HELLO 2 bot3\nJOIN lobby\n".utf8)
        // Before the 101 only the upgrade request goes; the lines wait.
        let request = String(decoding: try flushed(link, &lines), as: UTF8.self)
        #expect(request.hasPrefix("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:7171\r\n") && request.hasSuffix("\r\n\r\n"))
        #expect(request.contains("Upgrade: websocket\r\n") && request.contains("Sec-WebSocket-Version: 13\r\n"))
        let key = request.split(separator: "\r\n").first { $0.hasPrefix("Sec-WebSocket-Key: ") }!.dropFirst(19)
        #expect(Base64.decode(String(key))?.count == 16 && WebSocketHandshake.accept(key: String(key)) == link.expectedAccept)
        #expect(lines.count == 24 && !link.hasUnsentOutput(lines: lines))

        // The 101 and a first server frame in one read, a second frame split over two.
        let hello = WebSocketFrame(opcode: .text, payload: Array("OK hello 2 id=3".utf8)).encoded()
        let long = WebSocketFrame(opcode: .text, payload: Array(repeating: UInt8(ascii: "s"), count: 300)).encoded()
        var received: [[UInt8]] = []
        var opened = false
        let first = response(link) + hello + long.prefix(3)
        let used = try first.withUnsafeBytes { try link.receive($0, opened: &opened) { received.append(Array($0)); return true } }
        #expect(opened && used == first.count - 3 && link.stage == .open)
        opened = false
        _ = try long.withUnsafeBytes { try link.receive($0, opened: &opened) { received.append(Array($0)); return true } }
        #expect(!opened && received == [Array("OK hello 2 id=3".utf8), Array(repeating: UInt8(ascii: "s"), count: 300)])

        // Now the held lines go, and a long one takes the 16-bit length form.
        lines += Array(("SAY " + String(repeating: "y", count: 200) + "\nDRAG 1 2").utf8)
        #expect(link.hasUnsentOutput(lines: lines))
        let wire = try flushed(link, &lines)
        let frames = decode(wire)
        #expect(frames.map(\.opcode) == [.text, .text, .text] && frames.allSatisfy(\.fin))
        #expect(frames.map { String(decoding: $0.payload, as: UTF8.self) } == ["HELLO 2 bot3", "JOIN lobby", "SAY " + String(repeating: "y", count: 200)])
        // Fresh keys: the first two frames' masks differ.
        #expect(wire[2..<6] != wire[2 + 6 + 12..<6 + 6 + 12])
        #expect(lines == Array("DRAG 1 2".utf8))
    }

    @Test func answersPingsAndRefusesABadUpgradeOrAClose() throws {
        let link = WebSocketBotLink(host: "::1", port: 80, seed: 9)
        var lines: [UInt8] = []
        #expect(String(decoding: try flushed(link, &lines), as: UTF8.self).contains("Host: [::1]:80\r\n"))
        var opened = false
        let ping = response(link) + WebSocketFrame(opcode: .ping, payload: [1, 2, 3]).encoded()
        _ = try ping.withUnsafeBytes { try link.receive($0, opened: &opened) { _ in true } }
        #expect(link.hasUnsentOutput(lines: lines))
        #expect(decode(try flushed(link, &lines)) == [WebSocketFrame(opcode: .pong, payload: [1, 2, 3])])
        let close = WebSocketFrame.close(.normal).encoded()
        #expect(throws: WebSocketBotLink.Failure.self) { try close.withUnsafeBytes { try link.receive($0, opened: &opened) { _ in true } } }

        let refused = WebSocketBotLink(host: "127.0.0.1", port: 80, seed: 1)
        let wrong = response(refused, accept: "nope")
        #expect(throws: WebSocketBotLink.Failure.self) { try wrong.withUnsafeBytes { try refused.receive($0, opened: &opened) { _ in true } } }
        let notFound = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)
        #expect(throws: WebSocketBotLink.Failure.self) { try notFound.withUnsafeBytes { try refused.receive($0, opened: &opened) { _ in true } } }
    }
}
