/// What the telnet gateway is told by the server's config.
public struct TelnetSettings: Hashable, Sendable {
    /// Address to listen on (the game port's).
    public var bind: String
    /// Port to listen on; 0 lets the system pick one.
    public var port: Int
    /// Most telnet sessions at once; further clients are told so and closed.
    public var maxSessions: Int
    /// Seconds without a key from the client after which the session ends; 0 = never.
    public var idleTimeoutSeconds: Int
    /// Each client socket's kernel send buffer in bytes (0: the system's).
    public var sendBuffer: Int
    /// Bytes queued to one client past which it is dropped.
    public var outputLimit = 1 << 20
    /// How long queued bytes may wait without the client taking any before it is dropped.
    public var stallMillis: Int64 = 10_000
    /// Wrong come-back codes a session may type before it is closed.
    public var maxWrongCodes = 3

    public init(bind: String, port: Int, maxSessions: Int, idleTimeoutSeconds: Int, sendBuffer: Int) {
        self.bind = bind
        self.port = port
        self.maxSessions = maxSessions
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.sendBuffer = sendBuffer
    }
}
