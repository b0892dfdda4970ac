/// Reads a JPEG scan's entropy-coded bits, most significant first, removing
/// the stuffed zero after each `FF` byte. At a marker (or the end of the
/// data) it supplies zero bytes, as libjpeg does, and counts them: a scan
/// that used any of them had less data than its blocks need.
struct JPEGBits {
    let data: UnsafeBufferPointer<UInt8>
    /// The next byte to read; stops at a marker's `FF`.
    var position: Int
    /// Buffered bits, left-aligned (the next bit is bit 63).
    var buffer: UInt64 = 0
    var count = 0
    /// Zero bytes supplied past the marker or the end of the data.
    var padding = 0

    init(_ data: UnsafeBufferPointer<UInt8>, from position: Int) {
        self.data = data
        self.position = position
    }

    /// Fills the buffer to at least 57 bits.
    mutating func fill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if padding == 0 && position < data.count {
                byte = data[position]
                if byte == 0xFF {
                    if position + 1 < data.count && data[position + 1] == 0 {
                        position += 2
                    } else {
                        // A marker: leave `position` on its FF for the caller.
                        byte = 0
                        padding = 1
                    }
                } else {
                    position += 1
                }
            } else {
                padding += 1
            }
            buffer |= UInt64(byte) << UInt64(56 - count)
            count += 8
        }
    }

    /// True once a supplied zero bit has been consumed.
    var overran: Bool { padding * 8 > count }

    /// True when the data itself ended (rather than a marker following).
    var atEnd: Bool { position >= data.count }

    @inline(__always)
    mutating func bits(_ n: Int) -> Int {
        if count < n { fill() }
        let value = Int(truncatingIfNeeded: buffer >> UInt64(64 - n))
        buffer <<= UInt64(n)
        count -= n
        return value
    }

    @inline(__always)
    mutating func bit() -> Int {
        if count < 1 { fill() }
        let value = Int(truncatingIfNeeded: buffer >> 63)
        buffer <<= 1
        count -= 1
        return value
    }

    /// `n` bits as a signed difference (JPEG's EXTEND: a leading 0 bit means negative).
    @inline(__always)
    mutating func signed(_ n: Int) -> Int {
        if n == 0 { return 0 }
        let v = bits(n)
        return v < 1 << (n - 1) ? v - (1 << n) + 1 : v
    }

    /// Drops the partial byte and any buffered bytes before a restart marker.
    mutating func reset() {
        buffer = 0
        count = 0
        padding = 0
    }
}
