/// What a registered descriptor should be watched for.
public struct Interest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let readable = Interest(rawValue: 1 << 0)
    public static let writable = Interest(rawValue: 1 << 1)
    public static let both: Interest = [.readable, .writable]
}

/// One descriptor's readiness, as reported by `EpollQueue.wait`.
public struct ReadinessEvent: Hashable, Sendable {
    /// The token given at registration.
    public let token: UInt64
    /// Data (or EOF, or a pending connection) can be read.
    public let readable: Bool
    /// Bytes can be written.
    public let writable: Bool
    /// The peer hung up or shut down its write side; reading will hit EOF.
    public let hangup: Bool
    /// The descriptor has a pending error; a read or write will report it.
    public let error: Bool

    public init(token: UInt64, readable: Bool, writable: Bool, hangup: Bool, error: Bool) {
        self.token = token
        self.readable = readable
        self.writable = writable
        self.hangup = hangup
        self.error = error
    }
}
