/// A parsed request line and header fields.
public struct HTTPRequestHead: Sendable, Equatable {
    public var method: String
    /// The request target as sent (origin form: a path and maybe a query).
    public var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    public var headers: HTTPHeaders

    public init(method: String, target: String, minorVersion: Int, headers: HTTPHeaders) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
    }

    /// The target's path, without the query.
    public var path: String {
        if let q = target.firstIndex(of: "?") { return String(target[..<q]) }
        return target
    }

    /// The value of `name` in the target's query (`?w=800`), undecoded.
    public func query(_ name: String) -> String? {
        guard let q = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: q)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        if headers.hasToken("Connection", "close") { return false }
        return minorVersion >= 1 || headers.hasToken("Connection", "keep-alive")
    }
}
