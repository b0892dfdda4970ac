#if canImport(Glibc)
import Glibc
#endif

/// The machine's own interface addresses (getifaddrs), for telling players on
/// the LAN where to connect. Read locally: nothing is sent to the network.
public enum NetworkInterfaces {
    /// One address of one interface.
    public struct Address: Hashable, Sendable {
        /// The interface, e.g. "eth0".
        public var interface: String
        public var family: SocketAddress.Family
        /// Numeric host, e.g. "192.168.1.20" or "fe80::1" (without a zone).
        public var host: String
        public var isLoopback: Bool
        /// IPv6 link-local (fe80::/10): usable only with the interface named (`%eth0`).
        public var isLinkLocal: Bool

        public init(interface: String, family: SocketAddress.Family, host: String, isLoopback: Bool, isLinkLocal: Bool) {
            self.interface = interface
            self.family = family
            self.host = host
            self.isLoopback = isLoopback
            self.isLinkLocal = isLinkLocal
        }
    }

    /// Every IPv4 and IPv6 address of every interface that is up.
    public static func addresses() throws(Errno) -> [Address] {
        var list: UnsafeMutablePointer<ifaddrs>?
        _ = try valueOrThrow { Syscall.getifaddrs(&list) }
        defer { Syscall.freeifaddrs(list) }
        var found: [Address] = []
        var entry = list
        while let e = entry {
            defer { entry = e.pointee.ifa_next }
            guard let raw = e.pointee.ifa_addr, e.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let family = Int32(raw.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var storage = sockaddr_storage()
            let size = family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: size)) }
            let address = SocketAddress(storage)
            let loopback = e.pointee.ifa_flags & UInt32(IFF_LOOPBACK) != 0
            let lower = address.host.lowercased()
            found.append(Address(interface: String(cString: e.pointee.ifa_name), family: address.family, host: address.host,
                                 isLoopback: loopback, isLinkLocal: family == AF_INET6 && lower.hasPrefix("fe8")))
        }
        return found
    }
}
