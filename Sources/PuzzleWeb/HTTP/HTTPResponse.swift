/// A response to write: status line, header fields, body.
///
/// Every response but a 101 carries `Content-Length` (no chunked bodies; a
/// 304 and a HEAD response the length of the body they stand for, which
/// they do not send: RFC 9110 §8.6, §9.3.2), says whether
/// the connection stays open, and sends the security headers a page served
/// on a LAN should: no MIME sniffing, scripts and connections from its own
/// origin only (CSP level 3's `'self'` also covers `ws:` to the same host and
/// port, which is how the page reaches the game), no referrer, no framing.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// The body; for a 304 the body a 200 would send (its length is stated,
    /// its bytes are not sent).
    public var body: [UInt8]
    /// Whether the response is to a HEAD request: headers as for GET, no body.
    public var isHead = false

    /// Sent with every response (see the type's documentation).
    public static let securityHeaders: [(String, String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
    ]

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain text response for a refused request, its text on one line.
    public static func error(_ error: HTTPError) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")])
        for (name, value) in error.headers { headers.add(name, value) }
        return HTTPResponse(status: error.status, headers: headers, body: Array((error.message + "\n").utf8))
    }

    /// The bytes to send. `keepAlive` false adds `Connection: close`.
    public func encoded(keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        for (name, value) in headers.fields { text += "\(name): \(value)\r\n" }
        if status != .switchingProtocols {
            for (name, value) in Self.securityHeaders where headers[name] == nil { text += "\(name): \(value)\r\n" }
            // A 304 too: HTTP lets it leave the length out, but when it states
            // one it must be the 200's (RFC 9110 §8.6), and so it does, as
            // PROTOCOL.md promises of every response; it still ends at its
            // blank line (RFC 9112 §6.3).
            text += "Content-Length: \(body.count)\r\n"
            text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if status.allowsBody && !isHead { bytes += body }
        return bytes
    }
}
