/// Bits packed the way DEFLATE wants: least significant bit first, except
/// Huffman codes, which go most significant bit first.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt32 = 0
    private var count = 0

    mutating func write(_ value: UInt32, bits: Int) {
        guard bits > 0 else { return }
        buffer |= (value & ((1 << UInt32(bits)) - 1)) << UInt32(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// A Huffman code of `length` bits, its first bit the most significant.
    mutating func writeCode(_ code: Int, length: Int) {
        var reversed: UInt32 = 0
        for k in 0..<length where code & (1 << (length - 1 - k)) != 0 { reversed |= 1 << UInt32(k) }
        write(reversed, bits: length)
    }

    mutating func alignToByte() {
        if count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer = 0
            count = 0
        }
    }
}
