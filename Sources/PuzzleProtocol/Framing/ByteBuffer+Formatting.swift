/// Fast text formatting into byte arrays, for lines encoded once per event and
/// sent to many members: no String interpolation on the hot path.
extension Array where Element == UInt8 {
    @inline(__always)
    public mutating func append(ascii s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }

    public mutating func append(text s: String) {
        append(contentsOf: s.utf8)
    }

    public mutating func append(decimal value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            // The magnitude, not `-value`: negating Int.min traps.
            append(decimal: UInt64(value.magnitude))
        } else {
            append(decimal: UInt64(value))
        }
    }

    public mutating func append(decimal value: UInt64) {
        if value < 10 {
            append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value
        var count = 0
        Swift.withUnsafeMutableBytes(of: &digits) { buf in
            while n > 0 {
                buf[19 - count] = UInt8(truncatingIfNeeded: n % 10) &+ 0x30
                n /= 10
                count += 1
            }
            append(contentsOf: buf[(20 - count)...])
        }
    }
}

extension String {
    /// The line `encode` appends (with its LF), as text without the LF: the
    /// codecs' `line(_:)`, for logs and tests.
    public init(encodedLine encode: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        encode(&bytes)
        self = String(decoding: bytes.dropLast(), as: UTF8.self)
    }
}
