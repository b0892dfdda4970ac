/// How much of a request head the server takes, and for how long.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line, in bytes (without CRLF): longer gets 414.
    public var maxRequestLine: Int
    /// Most bytes of header fields (all lines after the request line): more gets 431.
    public var maxHeaderBytes: Int
    /// Most header fields: more gets 431.
    public var maxHeaderCount: Int
    /// How long a request head may take from its first byte (ms): longer gets 408.
    public var headerTimeoutMillis: Int64

    public init(maxRequestLine: Int = 2048, maxHeaderBytes: Int = 8192, maxHeaderCount: Int = 64, headerTimeoutMillis: Int64 = 10_000) {
        self.maxRequestLine = maxRequestLine
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.headerTimeoutMillis = headerTimeoutMillis
    }
}
