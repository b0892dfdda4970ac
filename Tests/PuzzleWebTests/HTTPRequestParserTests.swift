import Testing
@testable import PuzzleWeb

@Suite struct HTTPRequestParserTests {
    private let request = "GET /app.js?v=2 HTTP/1.1\r\nHost: 10.0.0.5:7777\r\nConnection: keep-alive, Upgrade\r\nAccept: */*\r\n\r\n"

    /// Feeds `chunks`, draining after each.
    private func events(_ chunks: [[UInt8]], limits: HTTPLimits = HTTPLimits()) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        var out: [HTTPRequestParser.Event] = []
        for chunk in chunks {
            parser.append(chunk)
            while let event = parser.next() {
                out.append(event)
                if case .failed = event { return out }
            }
        }
        return out
    }

    @Test func parsesAHeadWhateverTheSplit() throws {
        let bytes = Array(request.utf8)
        let whole = events([bytes])
        #expect(events(bytes.map { [$0] }) == whole)
        for cut in 1..<bytes.count {
            #expect(events([Array(bytes[..<cut]), Array(bytes[cut...])]) == whole)
        }
        guard case .head(let head) = whole.first else { Issue.record("no head: \(whole)"); return }
        #expect(whole.count == 1)
        #expect(head.method == "GET")
        #expect(head.path == "/app.js")
        #expect(head.query("v") == "2")
        #expect(head.headers["host"] == "10.0.0.5:7777")
        #expect(head.headers.hasToken("CONNECTION", "upgrade"))
        #expect(head.keepAlive)
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let two = Array((request + "HEAD / HTTP/1.0\r\n\r\n").utf8)
        let out = events([two])
        #expect(out.count == 2)
        if case .head(let second) = out.last {
            #expect(second.method == "HEAD")
            #expect(!second.keepAlive)
        } else {
            Issue.record("\(out)")
        }
    }

    @Test func bareLFLinesAndLeadingBlankLinesAreAccepted() {
        let out = events([Array("\r\n\nGET / HTTP/1.1\nHost: x\n\n".utf8)])
        guard case .head(let head) = out.first else { Issue.record("\(out)"); return }
        #expect(head.target == "/")
    }

    private func failure(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPStatus? {
        let bytes = Array(text.utf8)
        let whole = events([bytes], limits: limits)
        // The same verdict byte by byte as all at once.
        #expect(events(bytes.map { [$0] }, limits: limits) == whole)
        if case .failed(let error) = whole.last { return error.status }
        return nil
    }

    @Test func malformedRequestsGet400() {
        #expect(failure("GET /\r\n\r\n") == .badRequest)
        #expect(failure("GET  / HTTP/1.1\r\nHost: x\r\n\r\n") == .badRequest)
        #expect(failure("GET / HTTP/1.1\r\n\r\n") == .badRequest)  // no Host
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == .badRequest)
        #expect(failure("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n") == .badRequest)
        #expect(failure("GET / HTTP/1.1\r\nHost : x\r\n\r\n") == .badRequest)
        #expect(failure("GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n") == .badRequest)
        #expect(failure("GET / HTTP/1.1\r\nHost: x\u{01}\r\n\r\n") == .badRequest)
        #expect(failure("G(T / HTTP/1.1\r\nHost: x\r\n\r\n") == .badRequest)
        for version in ["HTTP/2.0", "HTTP/2", "HTTP/3", "HTTP/1.2", "HTTP/0.9", "HTTP/1"] {
            #expect(failure("GET / \(version)\r\nHost: x\r\n\r\n") == .httpVersionNotSupported, "\(version)")
        }
        for version in ["HTTP/", "HTTP/1.", "HTTP/.1", "HTTP/x", "HTTP/1.1.1", "HTTP/1.x", "http/1.1", "HTTQ/1.1"] {
            #expect(failure("GET / \(version)\r\nHost: x\r\n\r\n") == .badRequest, "\(version)")
        }
        #expect(failure("GET / HTTP/1.0\r\n\r\n") == nil)
    }

    @Test func bodiesGet413() {
        #expect(failure("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello") == .contentTooLarge)
        #expect(failure("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n") == .contentTooLarge)
        #expect(failure("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n") == .badRequest)
        #expect(failure("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n") == nil)
    }

    /// Limits hold before the end of a line arrives: a request line or a
    /// header that never ends fails once it is over the limit.
    @Test func limitsFailBeforeTheLineEnds() {
        let limits = HTTPLimits(maxRequestLine: 64, maxHeaderBytes: 128, maxHeaderCount: 4)
        #expect(failure("GET /" + String(repeating: "a", count: 200), limits: limits) == .uriTooLong)
        #expect(failure("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 200), limits: limits) == .headersTooLarge)
        var many = "GET / HTTP/1.1\r\nHost: x\r\n"
        for i in 0..<4 { many += "X-\(i): y\r\n" }
        #expect(failure(many + "\r\n", limits: limits) == .headersTooLarge)
        #expect(failure("GET / HTTP/1.1\r\nHost: x\r\nX-0: y\r\n\r\n", limits: limits) == nil)
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(("GET /" + String(repeating: "a", count: 60)).utf8))
        let event = parser.next()
        #expect(event == nil)
        #expect(parser.isInsideHead)
    }

    @Test func responsesCarryLengthConnectionAndSecurityHeaders() {
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array("hi".utf8))
        let text = String(decoding: response.encoded(keepAlive: true), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("\r\nContent-Length: 2\r\n"))
        #expect(text.contains("\r\nConnection: keep-alive\r\n"))
        #expect(text.contains("\r\nX-Content-Type-Options: nosniff\r\n"))
        #expect(text.contains("\r\nContent-Security-Policy: default-src 'self'"))
        #expect(text.contains("\r\nReferrer-Policy: no-referrer\r\n"))
        #expect(text.contains("\r\nX-Frame-Options: DENY\r\n"))
        #expect(text.hasSuffix("\r\n\r\nhi"))
        response.isHead = true
        let head = String(decoding: response.encoded(keepAlive: false), as: UTF8.self)
        #expect(head.contains("Content-Length: 2\r\n") && head.contains("Connection: close\r\n") && head.hasSuffix("\r\n\r\n"))
        let error = String(decoding: HTTPResponse.error(.methodNotAllowed("GET, HEAD")).encoded(keepAlive: false), as: UTF8.self)
        #expect(error.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n") && error.contains("\r\nAllow: GET, HEAD\r\n"))
    }
}
