// A picture's name by content, so that a client can keep pictures it has
// been sent and the server can send a hash in place of the pixels.

extension Picture {
    /// FNV-1a (64 bits) over the width and height (each as 4 bytes, most
    /// significant first) and then every pixel's red, green and blue bytes,
    /// row-major: the `<hash>` of `S picture <w> <h> <hash>` and `OK picture`.
    /// Not a secret and not collision-proof against an adversary: it names a
    /// picture in a client's cache, and the server that sent the hash is the
    /// one that sends the pixels.
    public var contentHash: UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ b: UInt8) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        for v in [UInt32(width), UInt32(height)] {
            mix(UInt8(v >> 24)); mix(UInt8((v >> 16) & 0xff)); mix(UInt8((v >> 8) & 0xff)); mix(UInt8(v & 0xff))
        }
        for p in pixels { mix(p.r); mix(p.g); mix(p.b) }
        return h
    }

    /// `contentHash` as 16 lowercase hex digits (the wire's form).
    public var contentHashHex: String {
        let s = String(contentHash, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
