/// What a connection speaks, decided by its first bytes: the line protocol
/// straight over TCP, or HTTP (a browser: the page, then the line protocol
/// over a WebSocket, see `WebSession`).
enum ConnectionTransport: Equatable {
    /// Too few bytes yet: they are a prefix of an HTTP method and a space.
    case undecided
    case lines
    /// HTTP, and WebSocket after an upgrade: `Connection.web` has the session.
    case web

    /// The methods that make a connection HTTP, each with its space. No
    /// protocol verb is one of them, and HTTP methods are case-sensitive
    /// while verbs are not, so `get` is still a line.
    private static let methods: [[UInt8]] = ["GET ", "HEAD ", "POST ", "PUT ", "DELETE ", "OPTIONS ", "PATCH ", "CONNECT ", "TRACE "].map { Array($0.utf8) }

    /// What `firstBytes` (everything the connection has sent) make it.
    static func classify(_ firstBytes: [UInt8]) -> ConnectionTransport {
        var undecided = false
        for method in methods {
            if firstBytes.starts(with: method) { return .web }
            if method.starts(with: firstBytes) { undecided = true }
        }
        return undecided ? .undecided : .lines
    }
}
