/// Why a request was refused: its status and a stable one-line text, sent as
/// the (plain text) body and written to the log.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPStatus
    public var message: String
    /// Extra response headers the refusal needs (`Allow` on 405,
    /// `Sec-WebSocket-Version` on a 426 for a wrong WebSocket version).
    public var headers: [(String, String)]

    public init(_ status: HTTPStatus, _ message: String, headers: [(String, String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public static func == (a: HTTPError, b: HTTPError) -> Bool {
        a.status == b.status && a.message == b.message && a.headers.map { "\($0.0):\($0.1)" } == b.headers.map { "\($0.0):\($0.1)" }
    }

    public var description: String { "\(status.rawValue) \(message)" }

    public static func badRequest(_ why: String) -> HTTPError { HTTPError(.badRequest, "bad request: \(why)") }
    public static let notFound = HTTPError(.notFound, "no such page")
    public static func methodNotAllowed(_ allowed: String) -> HTTPError {
        HTTPError(.methodNotAllowed, "method not allowed here (allowed: \(allowed))", headers: [("Allow", allowed)])
    }
    public static let timeout = HTTPError(.requestTimeout, "the request head took too long to arrive")
    public static let bodyNotAccepted = HTTPError(.contentTooLarge, "request bodies are not accepted")
    public static let uriTooLong = HTTPError(.uriTooLong, "request line too long")
    public static let headersTooLarge = HTTPError(.headersTooLarge, "request header fields too large or too many")
    public static let versionNotSupported = HTTPError(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are spoken")
}
