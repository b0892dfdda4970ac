/// Which pages may open a WebSocket to the server (`web_origins`).
public enum WebSocketOriginPolicy: Sendable, Equatable {
    /// The page's origin must name the scheme, host and port the request
    /// was sent to (`http`, the only scheme the server speaks, and its
    /// `Host`): the server's own page. An `https://` origin is some other
    /// page (one behind a TLS proxy, say), however like the host it looks.
    case sameHost
    /// Any origin (a page served elsewhere may connect).
    case any
    /// These origins only (`http://192.168.1.5:7777`), compared without case.
    case list([String])

    /// Whether a request with `origin` sent to `host` may upgrade. A request
    /// without `Origin` is not from a browser page (browsers always send it
    /// on WebSocket requests), so nothing cross-site is at stake: accepted.
    public func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        switch self {
        case .any:
            return true
        case .list(let allowed):
            return allowed.contains { $0.lowercased() == origin.lowercased() }
        case .sameHost:
            let lower = origin.lowercased()
            // RFC 6454: an origin is scheme, host and port. The server speaks
            // plain HTTP only, so its own page's origin is `http://`; the same
            // host and port over `https` is another origin.
            let scheme = "http://"
            guard let host, lower.hasPrefix(scheme) else { return false }
            var authority = String(lower.dropFirst(scheme.count))
            var hostValue = host.lowercased()
            // A default port may be written or left out on either side.
            let defaultPort = ":80"
            if authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
            if hostValue.hasSuffix(defaultPort) { hostValue.removeLast(defaultPort.count) }
            return !authority.isEmpty && authority == hostValue
        }
    }
}

/// The opening handshake of RFC 6455 §4.2, the server's side.
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`.
    public static func accept(key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + guid).utf8)))
    }

    /// The 101 response that upgrades `head`, or why it may not: 405 for a
    /// method other than GET, 426 (with `Upgrade: websocket`) for a request
    /// that is not an upgrade, 426 (with `Sec-WebSocket-Version: 13`) for
    /// another version, 400 for a missing or malformed key or a `Connection`
    /// without `upgrade`, 403 for an origin the policy refuses.
    public static func response(to head: HTTPRequestHead, origins: WebSocketOriginPolicy) -> Result<HTTPResponse, HTTPError> {
        guard head.method == "GET" else { return .failure(.methodNotAllowed("GET")) }
        guard head.minorVersion >= 1 else { return .failure(.badRequest("a WebSocket upgrade needs HTTP/1.1")) }
        guard head.headers.hasToken("Upgrade", "websocket") else {
            return .failure(HTTPError(.upgradeRequired, "this address speaks WebSocket only", headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")]))
        }
        guard head.headers.hasToken("Connection", "upgrade") else {
            return .failure(.badRequest("Connection must include Upgrade"))
        }
        guard head.headers.values("Sec-WebSocket-Version").map({ $0.trimmingHTTPWhitespace() }) == ["13"] else {
            return .failure(HTTPError(.upgradeRequired, "only WebSocket version 13 is spoken", headers: [("Sec-WebSocket-Version", "13")]))
        }
        let keys = head.headers.values("Sec-WebSocket-Key")
        guard keys.count == 1, let key = Base64.decode(keys[0]), key.count == 16 else {
            return .failure(.badRequest("Sec-WebSocket-Key must be the base64 of 16 bytes"))
        }
        let origins_ = head.headers.values("Origin")
        guard origins_.count <= 1, origins.allows(origin: origins_.first, host: head.headers["Host"]) else {
            return .failure(HTTPError(.forbidden, "origin not allowed (web_origins)"))
        }
        let headers = HTTPHeaders([("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept(key: keys[0]))])
        return .success(HTTPResponse(status: .switchingProtocols, headers: headers))
    }
}
