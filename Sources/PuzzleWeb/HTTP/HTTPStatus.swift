/// The response statuses the server sends, with their reason phrases.
public enum HTTPStatus: Int, Sendable, Equatable {
    case switchingProtocols = 101
    case ok = 200
    case notModified = 304
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case uriTooLong = 414
    case upgradeRequired = 426
    case headersTooLarge = 431
    case serviceUnavailable = 503
    case httpVersionNotSupported = 505

    public var reason: String {
        switch self {
        case .switchingProtocols: "Switching Protocols"
        case .ok: "OK"
        case .notModified: "Not Modified"
        case .badRequest: "Bad Request"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .contentTooLarge: "Content Too Large"
        case .uriTooLong: "URI Too Long"
        case .upgradeRequired: "Upgrade Required"
        case .headersTooLarge: "Request Header Fields Too Large"
        case .serviceUnavailable: "Service Unavailable"
        case .httpVersionNotSupported: "HTTP Version Not Supported"
        }
    }

    /// Whether a response with this status may carry a body (RFC 9110 §15).
    public var allowsBody: Bool { self != .switchingProtocols && self != .notModified }
}
