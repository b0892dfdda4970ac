#if canImport(Glibc)
import Glibc
#endif

/// A parsed numeric IPv4/IPv6 address and port as the kernel wants it.
///
/// Internal: public API takes host strings and returns `SocketAddress`.
enum IPEndpoint {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// Parses a numeric host ("127.0.0.1", "0.0.0.0", "::", "::1", optionally
    /// in brackets) or "localhost", which means 127.0.0.1. No DNS: the project
    /// only ever talks to literal addresses, and getaddrinfo would block.
    ///
    /// - Throws: `Errno.invalidArgument` when `host` is none of those.
    init(host: String, port: UInt16) throws(Errno) {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") {
            text = String(text.dropFirst().dropLast())
        }
        if text == "localhost" { text = "127.0.0.1" }

        var v4 = sockaddr_in()
        if Syscall.inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if Syscall.inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self = .v6(v6)
            return
        }
        throw .invalidArgument
    }

    var family: Int32 {
        switch self {
        case .v4: return AF_INET
        case .v6: return AF_INET6
        }
    }

    /// Calls `body` with the address as the generic `sockaddr` pointer.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch self {
        case .v4(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}

extension SocketAddress {
    /// Decodes what accept/getsockname/getpeername wrote into `storage`.
    init(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let v4 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            var address = v4.sin_addr
            self.init(family: .ipv4,
                      host: SocketAddress.numericHost(AF_INET, &address, count: Int(INET_ADDRSTRLEN)),
                      port: UInt16(bigEndian: v4.sin_port))
        case AF_INET6:
            let v6 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var address = v6.sin6_addr
            self.init(family: .ipv6,
                      host: SocketAddress.numericHost(AF_INET6, &address, count: Int(INET6_ADDRSTRLEN)),
                      port: UInt16(bigEndian: v6.sin6_port))
        default:
            self.init(family: .unix, host: "", port: 0)
        }
    }

    private static func numericHost(_ family: Int32, _ address: UnsafeRawPointer, count: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { text in
            guard let base = text.baseAddress,
                  Syscall.inet_ntop(family, address, base, socklen_t(count)) != nil else { return "?" }
            return String(cString: base)
        }
    }

    /// Runs a getsockname-style call and decodes its result.
    static func fetch(_ call: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) throws(Errno) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                retryOnInterrupt { call(address, &length) }
            }
        }
        _ = try result.get()
        return SocketAddress(storage)
    }
}
