import Testing
import PuzzleLink
import PuzzleTestSupport
import PuzzleWeb
import PuzzleCore
@testable import PuzzleImages
import PuzzleProtocol
@testable import PuzzleServer

/// Browsers on the game's port, over real sockets: the page over HTTP, and
/// the line protocol over a WebSocket next to TCP players.
@Suite struct WebServingTests {
    private func get(_ c: RawWebClient, _ path: String, method: String = "GET", headers: [String] = []) throws -> RawWebClient.Response {
        try c.send(RawWebClient.get(path, method: method, port: c.port, headers: headers))
        return try c.response(head: method == "HEAD")
    }

    @Test func servesThePageWithCachingOnOneKeptAliveConnection() throws {
        let server = try TestServer()
        let c = try RawWebClient(port: server.port)
        let page = try get(c, "/")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<script src=\"app.js\""))
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(page.headers["Content-Security-Policy"]?.hasPrefix("default-src 'self'") == true)
        #expect(page.headers["Connection"] == "keep-alive")
        let etag = try #require(page.headers["ETag"])
        // Same connection: a second request, then a revalidation.
        let script = try get(c, "/app.js")
        #expect(script.status == 200 && script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.text.contains("WebSocket"))
        let again = try get(c, "/", headers: ["If-None-Match: \(etag)"])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["ETag"] == etag)
        let changed = try get(c, "/", headers: ["If-None-Match: \"other\""])
        #expect(changed.status == 200 && changed.body == page.body)
        for path in ["/style.css", "/icon.svg"] { #expect(try get(c, path).status == 200) }
        let head = try get(c, "/", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["Content-Length"] == String(page.body.count))
        #expect(!c.closed)
    }

    /// A browser that takes gzip gets the page's text files gzipped (a
    /// phone on a slow link loads a third of the bytes), under an ETag of
    /// their own and `Vary: Accept-Encoding`; one that refuses it (`q=0`)
    /// or does not say gets them as they are. Inflated, they are the files.
    @Test func servesThePageGzippedToBrowsersThatTakeIt() throws {
        let server = try TestServer()
        let c = try RawWebClient(port: server.port)
        var packedBytes = 0, plainBytes = 0
        for path in ["/", "/app.js", "/draw.js", "/style.css", "/errors.js"] {
            let plain = try get(c, path)
            let packed = try get(c, path, headers: ["Accept-Encoding: gzip, deflate, br, zstd"])
            #expect(plain.headers["Content-Encoding"] == nil && plain.headers["Vary"] == "Accept-Encoding")
            #expect(packed.status == 200 && packed.headers["Content-Encoding"] == "gzip" && packed.headers["Vary"] == "Accept-Encoding")
            #expect(packed.headers["Content-Type"] == plain.headers["Content-Type"])
            #expect(try Self.gunzips(packed.body, to: plain.body), "\(path) inflates to the file")
            #expect(packed.body.count < plain.body.count, "\(path): \(packed.body.count) of \(plain.body.count)")
            let etag = try #require(packed.headers["ETag"])
            #expect(etag != plain.headers["ETag"])
            let again = try get(c, path, headers: ["Accept-Encoding: gzip", "If-None-Match: \(etag)"])
            #expect(again.status == 304 && again.headers["Content-Encoding"] == "gzip" && again.headers["Content-Length"] == String(packed.body.count))
            // The plain copy's tag does not stand for the gzipped one, nor the other way round.
            #expect(try get(c, path, headers: ["Accept-Encoding: gzip", "If-None-Match: \(plain.headers["ETag"] ?? "")"]).status == 200)
            #expect(try get(c, path, headers: ["If-None-Match: \(etag)"]).status == 200)
            packedBytes += packed.body.count
            plainBytes += plain.body.count
        }
        #expect(packedBytes * 2 < plainBytes, "\(packedBytes) of \(plainBytes)")
        for refusal in ["gzip;q=0", "gzip ; q=0.0, identity", "*;q=0", "br", "identity"] {
            let r = try get(c, "/app.js", headers: ["Accept-Encoding: \(refusal)"])
            #expect(r.status == 200 && r.headers["Content-Encoding"] == nil, "\(refusal)")
        }
        for taken in ["*", "GZIP;q=0.5", "deflate, x-gzip"] {
            #expect(try get(c, "/app.js", headers: ["Accept-Encoding: \(taken)"]).headers["Content-Encoding"] == "gzip", "\(taken)")
        }
        // A PNG is compressed already: as it is.
        #expect(try get(c, "/picture/lobby?w=64", headers: ["Accept-Encoding: gzip"]).headers["Content-Encoding"] == nil)
        #expect(!c.closed)
    }

    /// Whether `data` is a gzip member (RFC 1952) of `expected`: its header,
    /// its DEFLATE data inflated by our PNG inflater (as a zlib stream with
    /// the expected bytes' Adler-32, which it checks against what came out),
    /// and the CRC-32 and length it states.
    static func gunzips(_ data: [UInt8], to expected: [UInt8]) throws -> Bool {
        guard data.count >= 18, data[0] == 0x1F, data[1] == 0x8B, data[2] == 8, data[3] == 0 else { return false }
        let size = Int(data[data.count - 4]) | Int(data[data.count - 3]) << 8 | Int(data[data.count - 2]) << 16 | Int(data[data.count - 1]) << 24
        let crc = UInt32(data[data.count - 8]) | UInt32(data[data.count - 7]) << 8 | UInt32(data[data.count - 6]) << 16 | UInt32(data[data.count - 5]) << 24
        guard size == expected.count, crc == CRC32.checksum(expected) else { return false }
        let adler = expected.withUnsafeBufferPointer { Adler32.checksum($0) }
        let stream: [UInt8] = [0x78, 0x01] + data[10 ..< data.count - 8]
            + [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        let output = try stream.withUnsafeBufferPointer { (b) throws(ImageError) in try Inflater.zlib(b, outputSize: size) }
        return output == expected
    }

    /// The room's picture at the width a screen wants, drawn at that size.
    @Test func servesTheRoomsPictureAsPNG() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "tall", kind: .jigsaw, rows: 4, cols: 2, picture: "rings", rotation: false, password: nil),
                                            RoomSpec(name: "pole", kind: .swap, rows: 40, cols: 2, picture: "quilt", rotation: false, password: nil)])
        let c = try RawWebClient(port: server.port)
        let r = try get(c, "/picture/tall?w=300")
        #expect(r.status == 200 && r.headers["Content-Type"] == "image/png")
        let image = try PNGDecoder.decode(r.body)
        // The board's shape: 2 columns by 4 rows of square pieces.
        #expect(image.width == 300 && image.height == 600)
        let expected = try #require(Picture.builtin("rings", width: 300, height: 600))
        #expect(image.rgb == expected.pixels.flatMap { [$0.r, $0.g, $0.b] })
        let etag = try #require(r.headers["ETag"])
        #expect(try get(c, "/picture/tall?w=300", headers: ["If-None-Match: \(etag)"]).status == 304)
        let other = try get(c, "/picture/tall?w=64")
        #expect(other.status == 200 && other.headers["ETag"] != etag)
        // At most 2048 on either side: a tall board's picture is narrower.
        let pole = try PNGDecoder.decode(try get(c, "/picture/pole?w=2048", headers: ["Connection: close"]).body)
        #expect(pole.width == 102 && pole.height == 2048)
        _ = try c.waitForClose()
        let e = try RawWebClient(port: server.port)
        let head = try get(e, "/picture/tall?w=64", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        for (path, status) in [("/picture/none?w=64", 404), ("/picture/tall?w=4096", 400), ("/picture/tall?w=ab", 400),
                               ("/picture/tall?w=15", 400), ("/picture/../tall", 404), ("/picture/", 404)] {
            let d = try RawWebClient(port: server.port)
            #expect(try get(d, path).status == status, "\(path)")
        }
    }

    /// A picture is drawn off the event loop: the game goes on meanwhile,
    /// and pipelined requests are still answered in order.
    @Test func drawingAPictureDoesNotStopTheGame() throws {
        let server = try TestServer()
        let c = try RawWebClient(port: server.port)
        try c.send(RawWebClient.get("/picture/lobby?w=320", port: server.port) + RawWebClient.get("/style.css", port: server.port))
        let player = try LineClient(port: server.port)
        #expect(try player.request("PING busy").reply == "PONG busy")
        let picture = try c.response(timeout: 60)
        #expect(picture.status == 200 && picture.headers["Content-Type"] == "image/png")
        let css = try c.response()
        #expect(css.status == 200 && css.headers["Content-Type"] == "text/css; charset=utf-8")
    }

    @Test func unknownPathsAndMethods() throws {
        let server = try TestServer()
        for (method, path, status) in [("GET", "/nope", 404), ("GET", "/../Package.swift", 404), ("GET", "/Page/index.html", 404),
                                       ("DELETE", "/", 405), ("POST", "/app.js", 405), ("GET", "/ws", 426)] {
            let c = try RawWebClient(port: server.port)
            let r = try get(c, path, method: method)
            #expect(r.status == status, "\(method) \(path)")
            if status == 405 { #expect(r.headers["Allow"] == "GET, HEAD") }
            if status == 426 { #expect(r.headers["Upgrade"] == "websocket") }
            // A refused request ends its connection.
            _ = try c.waitForClose()
        }
    }

    @Test func aSlowHeaderSenderGets408AndIsDropped() throws {
        let server = try TestServer { $0.httpHeaderTimeoutMillis = 200 }
        let c = try RawWebClient(port: server.port)
        try c.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let r = try c.response()
        #expect(r.status == 408)
        _ = try c.waitForClose()
        // Part of a method name alone is too slow as well.
        let d = try RawWebClient(port: server.port)
        try d.send("GE")
        #expect(try d.response().status == 408)
    }

    @Test func oversizeHeadersGet431() throws {
        let server = try TestServer()
        let c = try RawWebClient(port: server.port)
        try c.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
        #expect(try c.response().status == 431)
        _ = try c.waitForClose()
        let d = try RawWebClient(port: server.port)
        try d.send("GET /" + String(repeating: "a", count: 5000) + " HTTP/1.1\r\n")
        #expect(try d.response().status == 414)
    }

    @Test func aBrowserPlaysNextToATCPPlayer() throws {
        let server = try TestServer()
        let tcp = try LineClient(port: server.port, name: "tcp")
        let tcpID = try tcp.enter(as: "tara")
        let web = try RawWebClient(port: server.port)
        let up = try web.upgrade(origin: "http://127.0.0.1:\(server.port)")
        #expect(up.status == 101)
        #expect(up.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        try web.sendLine("HELLO 2 wendy")
        #expect(try web.line(startingWith: "OK hello").contains("name=wendy"))
        try web.sendLine("JOIN lobby")
        let snapshot = try web.lines(through: "OK joined lobby")
        // Version 2 tells a page the table's shape and the pieces' outlines.
        #expect(snapshot.contains { $0.hasPrefix("S table ") } && snapshot.contains { $0.hasPrefix("S edges ") })
        #expect(!(try tcp.request("SYNC").state.contains { $0.hasPrefix("S table") }))
        _ = try tcp.waitForEvent { $0.contains(" joined ") && $0.contains("wendy") }
        // The browser's grab is seen by the TCP player, and the other way round.
        try web.sendLine("GRAB 4")
        #expect(try web.line(startingWith: "OK grabbed") == "OK grabbed 4")
        _ = try tcp.waitForEvent { $0.hasSuffix(" grabbed 4 \(tcpID + 1)") || $0.contains(" grabbed 4 ") }
        #expect(try tcp.request("GRAB 0").reply == "OK grabbed 0")
        #expect(try web.line(startingWith: "EV ").contains("grabbed 0 \(tcpID)"))
        // Byte by byte, a frame still is one line.
        try web.sendLine("DRAG 4 0 0", byteByByte: true)
        #expect(try web.line(startingWith: "OK dragged 4") == "OK dragged 4 0 0 -")
        _ = try tcp.waitForEvent { $0.contains(" dragged 4 ") }
        // A goodbye is a line, then a close frame.
        try web.sendLine("QUIT")
        #expect(try web.line(startingWith: "OK bye") == "OK bye")
        let close = try web.frame()
        #expect(close.opcode == .close && close.payload.prefix(2) == [0x03, 0xE8])
        _ = try tcp.waitForEvent { $0.contains(" left") }
    }

    @Test func closeHandshakeIsAnswered() throws {
        let server = try TestServer()
        let web = try RawWebClient(port: server.port)
        #expect(try web.upgrade().status == 101)
        try web.sendLine("PING one")
        try web.send(RawWebClient.frame(.close, [0x0F, 0xA0] + Array("done".utf8)))
        #expect(try web.line(startingWith: "PONG") == "PONG one")
        let close = try web.frame()
        #expect(close.opcode == .close && close.payload == [0x0F, 0xA0])
        _ = try web.waitForClose()
    }

    @Test func brokenFramesCloseWithTheirCodes() throws {
        let server = try TestServer { $0.maxLineLength = 100 }
        let unmasked = WebSocketFrame(opcode: .text, payload: Array("PING".utf8)).encoded()
        var reserved = RawWebClient.frame(.text, Array("PING".utf8))
        reserved[0] |= 0x40
        let cases: [([UInt8], UInt16)] = [
            (unmasked, 1002), (reserved, 1002), ([0x83, 0x80, 1, 2, 3, 4], 1002),
            (RawWebClient.frame(.continuation, Array("x".utf8)), 1002),
            (RawWebClient.frame(.text, [0x50, 0xC0, 0x80]), 1007),
            (RawWebClient.frame(.text, Array(repeating: 0x41, count: 101)), 1009),
            (RawWebClient.frame(.binary, [1, 2]), 1003),
        ]
        for (bytes, code) in cases {
            let web = try RawWebClient(port: server.port)
            #expect(try web.upgrade().status == 101)
            try web.send(bytes, byteByByte: true)
            let close = try web.frame()
            #expect(close.opcode == .close)
            #expect(close.payload.count >= 2 && UInt16(close.payload[0]) << 8 | UInt16(close.payload[1]) == code, "\(bytes.prefix(4))")
            _ = try web.waitForClose()
        }
        // The longest line fits.
        let web = try RawWebClient(port: server.port)
        #expect(try web.upgrade().status == 101)
        try web.sendLine("PING " + String(repeating: "b", count: 95))
        #expect(try web.line(startingWith: "PONG").count == 100)
    }

    @Test func originPolicyRefusesOtherPages() throws {
        let server = try TestServer()
        let evil = try RawWebClient(port: server.port)
        #expect(try evil.upgrade(origin: "http://evil.example").status == 403)
        let wrongPort = try RawWebClient(port: server.port)
        #expect(try wrongPort.upgrade(origin: "http://127.0.0.1:1").status == 403)
        let open = try TestServer { $0.webOrigins = .list(["http://evil.example"]) }
        let allowed = try RawWebClient(port: open.port)
        #expect(try allowed.upgrade(origin: "http://evil.example").status == 101)
    }

    @Test func quietWebSocketsArePingedAndPongsAnswered() throws {
        let server = try TestServer { $0.webSocketPingMillis = 200 }
        let web = try RawWebClient(port: server.port)
        #expect(try web.upgrade().status == 101)
        let ping = try web.frame(timeout: 10)
        #expect(ping.opcode == .ping)
        try web.send(RawWebClient.frame(.pong, ping.payload))
        // Our ping is answered with its payload.
        try web.send(RawWebClient.frame(.ping, Array("hey".utf8)))
        var frame = try web.frame()
        while frame.opcode == .ping { frame = try web.frame() }
        #expect(frame.opcode == .pong && frame.payload == Array("hey".utf8))
        try web.sendLine("PING alive")
        #expect(try web.line(startingWith: "PONG") == "PONG alive")
    }

    @Test func shutdownSaysByeThenCloses() throws {
        let server = try TestServer()
        let web = try RawWebClient(port: server.port)
        #expect(try web.upgrade().status == 101)
        try web.sendLine("PING x")
        _ = try web.line(startingWith: "PONG")
        server.stop()
        #expect(try web.line(startingWith: "BYE SHUTDOWN").hasPrefix("BYE SHUTDOWN"))
        let close = try web.frame()
        #expect(close.opcode == .close && close.payload.prefix(2) == [0x03, 0xE9])
    }
}

@Suite struct WebConfigTests {
    @Test func webKeysParse() throws {
        let config = try ServerConfig.parse(text: "web_origins = http://a:1 https://b\nhttp_header_timeout_ms = 500\nwebsocket_ping_ms = 0\n", baseDirectory: "/")
        #expect(config.webOrigins == .list(["http://a:1", "https://b"]))
        #expect(config.httpHeaderTimeoutMillis == 500 && config.webSocketPingMillis == 0)
        #expect(try ServerConfig.parse(text: "web_origins = any\n", baseDirectory: "/").webOrigins == .any)
        for bad in ["web_origins = evil.example", "web_origins = http://a/path", "http_header_timeout_ms = 5"] {
            #expect(throws: ConfigError.self) { try ServerConfig.parse(text: bad + "\n", baseDirectory: "/") }
        }
    }
}
