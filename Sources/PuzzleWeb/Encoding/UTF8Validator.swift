/// Checks UTF-8 a piece at a time, so that a text message split into
/// fragments (anywhere, even inside a character) is judged as it arrives,
/// and fails as soon as a byte cannot continue valid UTF-8 (RFC 6455 §8.1:
/// fail fast). Rejects overlongs, surrogates and code points past U+10FFFF.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current character.
    private var needed = 0
    /// The allowed range of the next continuation byte (narrower right
    /// after some lead bytes, which is how overlongs and surrogates fail).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    public init() {}

    /// Whether the input so far ends between characters.
    public var isComplete: Bool { needed == 0 }

    /// Takes more bytes; false as soon as they cannot be valid UTF-8.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> Bool {
        for b in bytes {
            guard feed(byte: b) else { return false }
        }
        return true
    }

    public mutating func feed(byte b: UInt8) -> Bool {
        if needed > 0 {
            guard b >= low && b <= high else { return false }
            needed -= 1
            low = 0x80
            high = 0xBF
            return true
        }
        switch b {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: needed = 1
        case 0xE0: needed = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
        case 0xED: needed = 2; high = 0x9F
        case 0xF0: needed = 3; low = 0x90
        case 0xF1...0xF3: needed = 3
        case 0xF4: needed = 3; high = 0x8F
        default: return false
        }
        return true
    }

    /// Whether `bytes` are whole, valid UTF-8.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var v = UTF8Validator()
        return v.feed(bytes) && v.isComplete
    }
}
