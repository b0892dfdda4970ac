#if canImport(Glibc)
import Glibc
#endif

/// A stream socket: TCP over IPv4/IPv6, or AF_UNIX from `pair()`.
///
/// Every socket this type creates or accepts is non-blocking and
/// close-on-exec. Like `FileDescriptor` it is a copyable value that does not
/// own the descriptor; call `close()` exactly once.
public struct Socket: Hashable, Sendable, CustomStringConvertible {
    /// The underlying descriptor, e.g. for registering with an `EpollQueue`.
    public let descriptor: FileDescriptor

    /// Wraps an already open socket descriptor.
    public init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    public var description: String { "Socket(\(descriptor.rawValue))" }

    /// Outcome of one non-blocking `accept()`.
    public enum AcceptResult: Sendable {
        /// A new connection (already non-blocking) and the peer's address
        /// (its `description` is "host:port").
        case accepted(Socket, peer: SocketAddress)
        /// No connection is pending.
        case wouldBlock
    }

    /// Which half of the connection `shutdown` ends.
    public enum ShutdownDirection: Sendable {
        case read, write, both
    }

    static let streamFlags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    /// Opens a non-blocking stream socket of the given family.
    static func open(family: Int32) throws(Errno) -> Socket {
        let fd = try valueOrThrow { Syscall.socket(family, streamFlags, 0) }
        return Socket(descriptor: FileDescriptor(rawValue: fd))
    }

    /// A TCP listener on `host:port` with SO_REUSEADDR set.
    ///
    /// - Parameters:
    ///   - host: "0.0.0.0", "127.0.0.1", "::", "::1" or "localhost" (127.0.0.1).
    ///     "::" accepts IPv4 too unless the system sets `bindv6only`.
    ///   - port: 0 picks a free ephemeral port; read it back with `localPort`.
    ///   - backlog: queue length for not yet accepted connections.
    /// - Throws: `Errno.invalidArgument` for an unparsable host, otherwise what
    ///   socket/bind/listen report (e.g. `.addressInUse`).
    public static func listen(host: String, port: UInt16, backlog: Int32 = 511) throws(Errno) -> Socket {
        let endpoint = try IPEndpoint(host: host, port: port)
        let socket = try open(family: endpoint.family)
        do throws(Errno) {
            try socket.setReuseAddress(true)
            _ = try endpoint.withSockAddr { address, length in
                retryOnInterrupt { Syscall.bind(socket.descriptor.rawValue, address, length) }
            }.get()
            _ = try valueOrThrow { Syscall.listen(socket.descriptor.rawValue, backlog) }
            return socket
        } catch {
            try? socket.close()
            throw error
        }
    }

    /// A connected pair of AF_UNIX stream sockets, both non-blocking.
    public static func pair() throws(Errno) -> (Socket, Socket) {
        var fds: (Int32, Int32) = (-1, -1)
        _ = try withUnsafeMutablePointer(to: &fds) { pointer in
            pointer.withMemoryRebound(to: Int32.self, capacity: 2) { fds in
                retryOnInterrupt { Syscall.socketpair(AF_UNIX, streamFlags, 0, fds) }
            }
        }.get()
        return (Socket(descriptor: FileDescriptor(rawValue: fds.0)),
                Socket(descriptor: FileDescriptor(rawValue: fds.1)))
    }

    /// Accepts one pending connection without blocking.
    ///
    /// A connection that was reset while queued (`ECONNABORTED`) is skipped
    /// rather than reported: there is nobody left to serve.
    public func accept() throws(Errno) -> AcceptResult {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    retryOnInterrupt {
                        Syscall.accept4(descriptor.rawValue, address, &length,
                                        Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                    }
                }
            }
            switch result {
            case .success(let fd):
                let peer = SocketAddress(storage)
                return .accepted(Socket(descriptor: FileDescriptor(rawValue: fd)), peer: peer)
            case .failure(let error) where error == .wouldBlock:
                return .wouldBlock
            case .failure(let error) where error == .connectionAborted:
                continue
            case .failure(let error):
                throw error
            }
        }
    }

    /// The address this socket is bound to.
    public func localAddress() throws(Errno) -> SocketAddress {
        try SocketAddress.fetch { Syscall.getsockname(descriptor.rawValue, $0, $1) }
    }

    /// The address of the connected peer.
    func peerAddress() throws(Errno) -> SocketAddress {
        try SocketAddress.fetch { Syscall.getpeername(descriptor.rawValue, $0, $1) }
    }

    /// The bound port; for a listener on port 0, the one the kernel picked.
    public var localPort: UInt16 {
        get throws(Errno) { try localAddress().port }
    }

    /// Ends one or both directions; the peer sees EOF after a write shutdown.
    public func shutdown(_ direction: ShutdownDirection) throws(Errno) {
        let how: Int32
        switch direction {
        case .read: how = Int32(SHUT_RD)
        case .write: how = Int32(SHUT_WR)
        case .both: how = Int32(SHUT_RDWR)
        }
        _ = try valueOrThrow { Syscall.shutdown(descriptor.rawValue, how) }
    }

    /// Closes the socket.
    public func close() throws(Errno) {
        try descriptor.close()
    }
}
