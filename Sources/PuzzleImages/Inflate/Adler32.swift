/// zlib's Adler-32 (RFC 1950): two sums modulo 65521, reduced only every
/// 5552 bytes (the most that cannot overflow 32 bits). The sums themselves
/// are `RunningAdler32`'s, which takes the bytes in pieces.
enum Adler32 {
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var sums = RunningAdler32()
        sums.add(bytes)
        return sums.value
    }
}
