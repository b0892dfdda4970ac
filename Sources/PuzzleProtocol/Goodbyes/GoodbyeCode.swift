/// Why the server closes a connection (`BYE <code> <text>`): what clients and
/// scripts match on. Like `ErrorCode`, typed where the server writes one and a
/// client reads one; the set stays open (a code a newer server sends still
/// reads, as its raw text).
public struct GoodbyeCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Over `max_connections` or `max_connections_per_address`, at accept.
    public static let full = GoodbyeCode(rawValue: "FULL")
    /// No request for `idle_timeout_seconds`.
    public static let idle = GoodbyeCode(rawValue: "IDLE")
    /// The server is stopping.
    public static let shutdown = GoodbyeCode(rawValue: "SHUTDOWN")
    /// The same player said HELLO 2 with its token on another connection.
    public static let resumed = GoodbyeCode(rawValue: "RESUMED")
    /// The reader fell too far behind (see *Slow readers*).
    public static let slow = GoodbyeCode(rawValue: "SLOW")
}
