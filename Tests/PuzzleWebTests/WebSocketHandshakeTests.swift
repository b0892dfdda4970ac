import Testing
@testable import PuzzleWeb

@Suite struct WebSocketHandshakeTests {
    private func head(_ extra: [(String, String)] = [], dropping: Set<String> = [], method: String = "GET") -> HTTPRequestHead {
        var fields: [(String, String)] = [
            ("Host", "192.168.1.5:7777"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"), ("Origin", "http://192.168.1.5:7777"),
        ]
        fields.removeAll { dropping.contains($0.0) }
        return HTTPRequestHead(method: method, target: "/ws", minorVersion: 1, headers: HTTPHeaders(fields + extra))
    }

    private func status(_ head: HTTPRequestHead, _ policy: WebSocketOriginPolicy = .sameHost) -> HTTPStatus {
        switch WebSocketHandshake.response(to: head, origins: policy) {
        case .success(let r): r.status
        case .failure(let e): e.status
        }
    }

    @Test func acceptsAnUpgradeFromTheSameOrigin() throws {
        let response = try WebSocketHandshake.response(to: head(), origins: .sameHost).get()
        #expect(response.status == .switchingProtocols)
        #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let text = String(decoding: response.encoded(keepAlive: true), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("\r\nUpgrade: websocket\r\n") && text.contains("\r\nConnection: Upgrade\r\n"))
        #expect(!text.contains("Content-Length"))
    }

    @Test func headerNamesAndTokensIgnoreCase() {
        let h = HTTPRequestHead(method: "GET", target: "/ws", minorVersion: 1, headers: HTTPHeaders([
            ("host", "a:1"), ("UPGRADE", "WebSocket"), ("connection", "UPGRADE"),
            ("sec-websocket-key", "AQIDBAUGBwgJCgsMDQ4PEA=="), ("SEC-WEBSOCKET-VERSION", "13"),
        ]))
        #expect(status(h) == .switchingProtocols)
    }

    @Test func refusals() {
        #expect(status(head(method: "POST")) == .methodNotAllowed)
        #expect(status(head(dropping: ["Upgrade"])) == .upgradeRequired)
        #expect(status(head(dropping: ["Connection"])) == .badRequest)
        #expect(status(head([("Connection", "keep-alive")], dropping: ["Connection"])) == .badRequest)
        #expect(status(head(dropping: ["Sec-WebSocket-Key"])) == .badRequest)
        #expect(status(head([("Sec-WebSocket-Key", "c2hvcnQ=")], dropping: ["Sec-WebSocket-Key"])) == .badRequest)
        #expect(status(head([("Sec-WebSocket-Key", "not base64!!")], dropping: ["Sec-WebSocket-Key"])) == .badRequest)
        let wrongVersion = WebSocketHandshake.response(to: head([("Sec-WebSocket-Version", "8")], dropping: ["Sec-WebSocket-Version"]), origins: .sameHost)
        guard case .failure(let error) = wrongVersion else { Issue.record("accepted version 8"); return }
        #expect(error.status == .upgradeRequired)
        #expect(error.headers.contains { $0.0 == "Sec-WebSocket-Version" && $0.1 == "13" })
    }

    @Test func originPolicies() {
        let foreign = head([("Origin", "http://evil.example")], dropping: ["Origin"])
        #expect(status(foreign) == .forbidden)
        #expect(status(foreign, .any) == .switchingProtocols)
        #expect(status(foreign, .list(["http://EVIL.example"])) == .switchingProtocols)
        #expect(status(head(), .list(["http://other:1"])) == .forbidden)
        // No Origin: not a browser page, accepted.
        #expect(status(head(dropping: ["Origin"])) == .switchingProtocols)
        #expect(status(head([("Origin", "null")], dropping: ["Origin"])) == .forbidden)
        #expect(status(head([("Origin", "http://192.168.1.5:7778")], dropping: ["Origin"])) == .forbidden)
        #expect(WebSocketOriginPolicy.sameHost.allows(origin: "http://host", host: "host:80"))
        #expect(!WebSocketOriginPolicy.sameHost.allows(origin: "ftp://host", host: "host"))
        // The server speaks plain HTTP: an https page on its host and port is another origin.
        #expect(!WebSocketOriginPolicy.sameHost.allows(origin: "https://host:1", host: "host:1"))
        #expect(!WebSocketOriginPolicy.sameHost.allows(origin: "https://host", host: "host:443"))
    }
}
