import PuzzleWeb

/// What the server answers an HTTP request with: a fixed set of routes,
/// none of which reaches the file system (the page is built into the binary).
public struct WebSite: Sendable {
    /// The path of the WebSocket that carries the line protocol.
    public static let webSocketPath = "/ws"

    /// What to do with one request.
    public enum Answer: Equatable {
        /// Send this response; the connection stays HTTP.
        case respond(HTTPResponse)
        /// Send this 101 response; the connection speaks WebSocket from now on.
        case upgrade(HTTPResponse)
    }

    public var files: [String: WebFile] = WebFile.page
    public var origins: WebSocketOriginPolicy

    public init(origins: WebSocketOriginPolicy) {
        self.origins = origins
    }

    public func answer(_ head: HTTPRequestHead) -> Answer {
        let path = head.path
        if path == Self.webSocketPath {
            switch WebSocketHandshake.response(to: head, origins: origins) {
            case .success(let response): return .upgrade(response)
            case .failure(let error): return .respond(.error(error))
            }
        }
        guard let file = files[path] else {
            return .respond(.error(.notFound))
        }
        guard head.method == "GET" || head.method == "HEAD" else {
            return .respond(.error(.methodNotAllowed("GET, HEAD")))
        }
        return .respond(file.response(to: head))
    }
}
