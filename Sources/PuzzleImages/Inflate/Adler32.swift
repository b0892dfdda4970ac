/// zlib's Adler-32 (RFC 1950): two sums modulo 65521, reduced only every
/// 5552 bytes (the most that cannot overflow 32 bits).
enum Adler32 {
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + 5552)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}
