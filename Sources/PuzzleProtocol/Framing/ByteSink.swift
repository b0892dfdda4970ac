/// Where the codecs write a line's bytes: a growable `[UInt8]`, or the
/// server's output chunk that members' queues point into, so that the server
/// encodes an event or a reply straight where it is sent from (no scratch
/// array copied after it). The formatting below is written once for every
/// sink, with no String interpolation on the hot path; it and the codecs are
/// inlinable, so each sink gets them specialised.
public protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(bytes: UnsafeRawBufferPointer)
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    public mutating func append(bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

extension ByteSink {
    @inlinable @inline(__always)
    public mutating func append(ascii s: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inlinable
    public mutating func append(text s: String) {
        var s = s
        s.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    public mutating func append(decimal value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            // The magnitude, not `-value`: negating Int.min traps.
            append(decimal: UInt64(value.magnitude))
        } else {
            append(decimal: UInt64(value))
        }
    }

    @inlinable
    public mutating func append(decimal value: UInt64) {
        if value < 10 {
            append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        var n = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            while n > 0 {
                buf[23 - count] = UInt8(truncatingIfNeeded: n % 10) &+ 0x30
                n /= 10
                count += 1
            }
            append(bytes: UnsafeRawBufferPointer(rebasing: buf[(24 - count)...]))
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
