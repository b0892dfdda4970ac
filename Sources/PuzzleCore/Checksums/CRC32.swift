/// CRC-32 as zlib, PNG and Ethernet compute it (reflected polynomial
/// 0xEDB88320, initial value and final XOR 0xFFFFFFFF); "123456789" gives
/// 0xCBF43926. Guards each journal record (any changed, missing or added byte
/// in a line changes it, where a well-formed but wrong record would otherwise
/// replay as if it had happened) and each PNG chunk; one implementation for both.
public enum CRC32 {
    /// One entry per byte value: the CRC of that byte alone, without pre- and post-conditioning.
    public static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC-32 of `bytes`. Inlinable, and contiguous bytes (an array or
    /// its slice: every journal record) go through `checksum(buffer:)`: the
    /// generic loop, called across modules, stepped an iterator a byte (about
    /// 1% of the server's time on the drag path, with `perf`).
    @inlinable
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(buffer: $0) }) { return crc }
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension CRC32 {
    /// The CRC-32 of a buffer: the same value as `checksum(_:)`, without the
    /// generic iteration, for long runs such as a PNG's image data chunks.
    public static func checksum(buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
