/// Where a socket is bound or connected, in printable form.
///
/// Kept as text plus port (not a `sockaddr`) so it is `Sendable`, hashable and
/// usable from modules that do not import Glibc.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// Address family of the socket.
    public enum Family: Hashable, Sendable {
        case ipv4
        case ipv6
        /// AF_UNIX (only from `Socket.pair()`); host is empty and port 0.
        case unix
    }

    public let family: Family
    /// Numeric host, e.g. "127.0.0.1" or "::1"; empty for `.unix`.
    public let host: String
    public let port: UInt16

    public init(family: Family, host: String, port: UInt16) {
        self.family = family
        self.host = host
        self.port = port
    }

    /// "127.0.0.1:4000", "[::1]:4000" or "unix".
    public var description: String {
        switch family {
        case .ipv4: return "\(host):\(port)"
        case .ipv6: return "[\(host)]:\(port)"
        case .unix: return "unix"
        }
    }
}
