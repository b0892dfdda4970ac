/// What a registered descriptor should be watched for.
public struct Interest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let readable = Interest(rawValue: 1 << 0)
    public static let writable = Interest(rawValue: 1 << 1)
    public static let both: Interest = [.readable, .writable]
}

/// One descriptor's readiness, as reported by `EventQueue.wait`.
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

/// A readiness notifier in the style of epoll/kqueue.
///
/// Not thread-safe: one event-loop thread owns it. To wake it from elsewhere,
/// register a `Waker`.
public protocol EventQueue: AnyObject {
    /// The events of one `wait`, valid only until the next `wait` or `close`.
    associatedtype Events: RandomAccessCollection where Events.Element == ReadinessEvent

    /// Starts watching `descriptor`; `token` comes back in its events.
    func register(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno)
    /// Changes the interest (and token) of a registered descriptor.
    func modify(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno)
    /// Stops watching `descriptor`. Call before closing it.
    func deregister(_ descriptor: FileDescriptor) throws(Errno)
    /// Blocks up to `timeoutMillis` (-1 = forever, 0 = poll) for readiness.
    func wait(timeoutMillis: Int32) throws(Errno) -> Events
    /// Releases the kernel object. Further calls are programming errors.
    func close()
}
