/// One 8-bit-per-channel colour, the unit every picture is made of.
///
/// The wire form is `hex`: six lowercase hex digits, red first, with no `#`,
/// so that a picture row is simply the concatenation of its pixels' `hex`.
public struct RGB: Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    @inlinable
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// The colour as six lowercase hex digits, `"rrggbb"`.
    public var hex: String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(6)
        RGB.appendHex(of: self, to: &utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Parses six hex digits, `"rrggbb"`. Upper case digits are accepted too,
    /// but anything else (a leading `#`, a wrong length) is refused.
    public init?<S: StringProtocol>(hex: S) {
        var bytes = hex.utf8.makeIterator()
        guard let r = RGB.nextChannel(&bytes),
              let g = RGB.nextChannel(&bytes),
              let b = RGB.nextChannel(&bytes),
              bytes.next() == nil else { return nil }
        self.init(r: r, g: g, b: b)
    }
}

extension RGB {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"rrggbb"` to a UTF-8 buffer; shared with `Picture.hexRows()`
    /// so a whole row is built without one `String` per pixel.
    static func appendHex(of colour: RGB, to utf8: inout [UInt8]) {
        appendHex(of: colour.r, to: &utf8)
        appendHex(of: colour.g, to: &utf8)
        appendHex(of: colour.b, to: &utf8)
    }

    private static func appendHex(of channel: UInt8, to utf8: inout [UInt8]) {
        utf8.append(hexDigits[Int(channel >> 4)])
        utf8.append(hexDigits[Int(channel & 0x0f)])
    }

    /// Reads two hex digits as one channel, or nil if either is missing or not hex.
    static func nextChannel<I: IteratorProtocol<UInt8>>(_ bytes: inout I) -> UInt8? {
        guard let high = bytes.next().flatMap(nibble),
              let low = bytes.next().flatMap(nibble) else { return nil }
        return high << 4 | low
    }

    /// The value of one ASCII hex digit, or nil.
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }
}
