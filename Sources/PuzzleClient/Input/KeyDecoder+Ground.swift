/// Plain input: control bytes, ASCII and UTF-8.
extension KeyDecoder {
    mutating func processGround(_ byte: UInt8, into keys: inout [Key]) {
        if utf8Remaining > 0 {
            if continueUTF8(byte, into: &keys) { return }
            // Not a valid continuation: the partial character is replaced, the byte stands alone.
        }
        let followsCarriageReturn = lastWasCarriageReturn
        lastWasCarriageReturn = false
        switch byte {
        case 0x0D:
            lastWasCarriageReturn = true
            keys.append(.enter)
        case 0x0A:
            if !followsCarriageReturn { keys.append(.enter) }
        case 0x1B:
            state = .escape
        case 0x03:
            keys.append(.interrupt)
        case 0x04:
            keys.append(.endOfFile)
        case 0x09:
            keys.append(.tab)
        case 0x08, 0x7F:
            keys.append(.backspace)
        case 0x00..<0x20:
            keys.append(.control(byte))
        case 0x20..<0x7F:
            keys.append(.character(Character(Unicode.Scalar(byte))))
        case 0xC2...0xDF:
            startUTF8(byte, remaining: 1)
        case 0xE0...0xEF:
            startUTF8(byte, remaining: 2)
        case 0xF0...0xF4:
            startUTF8(byte, remaining: 3)
        default:
            // Stray continuation bytes, C0/C1 (overlong) and F5–FF never start a character.
            keys.append(.character(Self.replacement))
        }
    }

    static let replacement: Character = "\u{FFFD}"

    private mutating func startUTF8(_ byte: UInt8, remaining: Int) {
        utf8 = [byte]
        utf8Remaining = remaining
    }

    /// Consumes `byte` as the next byte of the pending UTF-8 character if it may be one.
    /// Otherwise emits U+FFFD for the partial character and returns false.
    private mutating func continueUTF8(_ byte: UInt8, into keys: inout [Key]) -> Bool {
        guard Self.validContinuation(byte, lead: utf8[0], isSecond: utf8.count == 1) else {
            utf8 = []
            utf8Remaining = 0
            keys.append(.character(Self.replacement))
            return false
        }
        utf8.append(byte)
        utf8Remaining -= 1
        if utf8Remaining == 0 {
            keys.append(.character(Self.decodeScalar(utf8)))
            utf8 = []
        }
        return true
    }

    /// The second byte is constrained further to rule out overlong forms, surrogates and
    /// values above U+10FFFF (Unicode Table 3-7).
    static func validContinuation(_ byte: UInt8, lead: UInt8, isSecond: Bool) -> Bool {
        guard isSecond else { return (0x80...0xBF).contains(byte) }
        switch lead {
        case 0xE0: return (0xA0...0xBF).contains(byte)
        case 0xED: return (0x80...0x9F).contains(byte)
        case 0xF0: return (0x90...0xBF).contains(byte)
        case 0xF4: return (0x80...0x8F).contains(byte)
        default: return (0x80...0xBF).contains(byte)
        }
    }

    static func decodeScalar(_ bytes: [UInt8]) -> Character {
        var value: UInt32
        switch bytes.count {
        case 2: value = UInt32(bytes[0] & 0x1F)
        case 3: value = UInt32(bytes[0] & 0x0F)
        default: value = UInt32(bytes[0] & 0x07)
        }
        for byte in bytes.dropFirst() {
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return replacement }
        return Character(scalar)
    }
}
