import PuzzleCore
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
        /// The picture of room `room`, `width` pixels wide (the server has it).
        case picture(room: String, width: Int)
    }

    /// Where room pictures are served: `/picture/<room>?w=<pixels>[&puzzle=<n>]`.
    public static let picturePrefix = "/picture/"
    /// Picture widths a browser may ask for (`w=`), and the one it gets without asking.
    public static let pictureWidths = 16...2048
    public static let defaultPictureWidth = 1024

    public var files: [String: WebFile] = WebFile.page
    public var origins: WebSocketOriginPolicy

    public init(origins: WebSocketOriginPolicy) {
        self.origins = origins
    }

    /// A picture request's `puzzle=<n>`: the picture of that puzzle (the
    /// current one or a solved one the room keeps, as a replay shows it);
    /// `.some(nil)` without it (the current puzzle's), nil when it is not a number.
    public static func picturePuzzle(_ head: HTTPRequestHead) -> Int?? {
        guard let p = head.query("puzzle") else { return .some(nil) }
        guard !p.isEmpty, p.utf8.count <= 9, p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(p) else { return nil }
        return .some(n)
    }

    public func answer(_ head: HTTPRequestHead) -> Answer {
        let path = head.path
        if path == Self.webSocketPath {
            switch WebSocketHandshake.response(to: head, origins: origins) {
            case .success(let response): return .upgrade(response)
            case .failure(let error): return .respond(.error(error))
            }
        }
        if path.hasPrefix(Self.picturePrefix) {
            let room = String(path.dropFirst(Self.picturePrefix.count))
            guard NameRule.isValid(room) else { return .respond(.error(.notFound)) }
            guard head.method == "GET" || head.method == "HEAD" else {
                return .respond(.error(.methodNotAllowed("GET, HEAD")))
            }
            var width = Self.defaultPictureWidth
            if let w = head.query("w") {
                guard w.utf8.count <= 5, w.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(w), Self.pictureWidths.contains(n) else {
                    return .respond(.error(.badRequest("w= must be a width in \(Self.pictureWidths.lowerBound)...\(Self.pictureWidths.upperBound) pixels")))
                }
                width = n
            }
            guard Self.picturePuzzle(head) != nil else {
                return .respond(.error(.badRequest("puzzle= must be a puzzle number")))
            }
            return .picture(room: room, width: width)
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
