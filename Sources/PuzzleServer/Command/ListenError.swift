import PuzzleSystem

/// The server could not listen where its config says: names the address and
/// port, since the bare errno ("Address already in use") does not.
public struct ListenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configured bind address.
    public var address: String
    /// The configured port.
    public var port: Int
    /// What socket, bind or listen reported.
    public var errno: Errno

    public init(address: String, port: Int, errno: Errno) {
        self.address = address
        self.port = port
        self.errno = errno
    }

    /// e.g. `cannot listen on 127.0.0.1:7171: Address already in use (errno 98)`.
    public var description: String {
        let host = address.contains(":") ? "[\(address)]" : address
        return "cannot listen on \(host):\(port): \(errno)"
    }
}
