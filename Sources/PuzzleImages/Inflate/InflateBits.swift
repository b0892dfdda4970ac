/// Reads DEFLATE's bit stream: least significant bit first, up to 64 bits
/// buffered. Past the end of the data it reads zero bytes, counting them, so
/// the decoder checks once per symbol (not per byte) whether it has used
/// bits the data never had.
struct InflateBits {
    let data: UnsafeBufferPointer<UInt8>
    /// Next byte to load; may run past `data.count` (those bytes read as zero).
    var position: Int
    var buffer: UInt64 = 0
    var count = 0

    init(_ data: UnsafeBufferPointer<UInt8>, from position: Int) {
        self.data = data
        self.position = position
    }

    /// Fills the buffer to at least 56 bits.
    @inline(__always)
    mutating func refill() {
        if position + 8 <= data.count {
            // One unaligned 8-byte load takes as many whole bytes as fit.
            let word = UInt64(littleEndian: UnsafeRawPointer(data.baseAddress! + position).loadUnaligned(as: UInt64.self))
            buffer |= word << UInt64(count)
            position += (63 - count) >> 3
            count |= 56
        } else {
            while count <= 56 {
                let byte: UInt8 = position < data.count ? data[position] : 0
                buffer |= UInt64(byte) << UInt64(count)
                position += 1
                count += 8
            }
        }
    }

    /// True once a bit that lies beyond the data has been consumed.
    var overran: Bool { (position - data.count) * 8 > count }

    /// The next `n` bits (n ≤ 32) without consuming them; the buffer must hold them.
    @inline(__always)
    func peek(_ n: Int) -> Int { Int(truncatingIfNeeded: buffer & ((1 << UInt64(n)) &- 1)) }

    @inline(__always)
    mutating func consume(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }

    @inline(__always)
    mutating func take(_ n: Int) -> Int {
        let v = peek(n)
        consume(n)
        return v
    }

    /// Drops the bits up to the next byte boundary and returns the buffered
    /// whole bytes to the data, so `position` is the next unread byte.
    mutating func alignToByte() {
        consume(count & 7)
        position -= count >> 3
        buffer = 0
        count = 0
    }
}
