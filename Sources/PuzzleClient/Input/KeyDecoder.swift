/// Turns raw terminal input into `Key`s. A pure state machine: bytes go in through `feed`, keys
/// come out, and anything incomplete (an escape sequence or a UTF-8 character split across
/// reads) is held until the rest arrives.
///
/// A lone ESC cannot be told apart from the start of a sequence until more input arrives, so it
/// is held as well: it is reported when the next byte cannot continue a sequence, or when the
/// caller sees `hasPendingEscape`, waits a short quiet period (some tens of milliseconds) with no
/// input, and calls `flushPendingEscape()`.
public struct KeyDecoder: Sendable {
    enum State: Sendable {
        case ground
        /// Saw ESC.
        case escape
        /// Saw ESC [; `sequence` holds parameter and intermediate bytes.
        case controlSequence
        /// Saw ESC O; `sequence` holds modifier digits some terminals insert.
        case singleShift3
    }

    /// Longer sequences are still swallowed, but their parameters are not kept.
    static let maximumSequenceLength = 32

    var state: State = .ground
    var sequence: [UInt8] = []
    var utf8: [UInt8] = []
    var utf8Remaining = 0
    var lastWasCarriageReturn = false

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether an ESC or an unfinished escape sequence is being held; the caller should call
    /// `flushPendingEscape()` if no more input arrives soon.
    public var hasPendingEscape: Bool {
        state != .ground
    }

    /// Decodes `bytes`, returning the keys completed by them.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Key] where Bytes.Element == UInt8 {
        var keys: [Key] = []
        for byte in bytes {
            process(byte, into: &keys)
        }
        return keys
    }

    /// Reports what a pending ESC turned out to be after a quiet period: a lone ESC becomes
    /// `.escape`; ESC [ or ESC O with nothing after becomes `.escape` plus that character (the
    /// user typed them); any longer unfinished sequence becomes `.unknown`. A UTF-8 character
    /// split across reads is not affected.
    public mutating func flushPendingEscape() -> [Key] {
        defer {
            state = .ground
            sequence = []
        }
        switch state {
        case .ground:
            return []
        case .escape:
            return [.escape]
        case .controlSequence where sequence.isEmpty:
            return [.escape, .character("[")]
        case .singleShift3 where sequence.isEmpty:
            return [.escape, .character("O")]
        case .controlSequence, .singleShift3:
            return [.unknown]
        }
    }

    private mutating func process(_ byte: UInt8, into keys: inout [Key]) {
        switch state {
        case .ground:
            processGround(byte, into: &keys)
        case .escape:
            processEscape(byte, into: &keys)
        case .controlSequence:
            processControlSequence(byte, into: &keys)
        case .singleShift3:
            processSingleShift3(byte, into: &keys)
        }
    }

    private mutating func processEscape(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case UInt8(ascii: "["):
            state = .controlSequence
            sequence = []
        case UInt8(ascii: "O"):
            state = .singleShift3
            sequence = []
        case 0x1B:
            keys.append(.escape)  // the first ESC was lone; the second is now pending
        default:
            keys.append(.escape)
            state = .ground
            processGround(byte, into: &keys)
        }
    }

    private mutating func processControlSequence(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case 0x20...0x3F:
            appendToSequence(byte)
        case 0x40...0x7E:
            keys.append(Self.controlSequenceKey(parameters: sequence, final: byte))
            state = .ground
            sequence = []
        default:
            abortSequence(at: byte, into: &keys)
        }
    }

    private mutating func processSingleShift3(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ";"):
            appendToSequence(byte)
        case 0x40...0x7E:
            keys.append(Self.singleShift3Key(final: byte))
            state = .ground
            sequence = []
        default:
            abortSequence(at: byte, into: &keys)
        }
    }

    private mutating func appendToSequence(_ byte: UInt8) {
        if sequence.count < Self.maximumSequenceLength {
            sequence.append(byte)
        }
    }

    /// A byte that cannot be part of the sequence ends it unrecognised; the byte itself is then
    /// decoded normally (an ESC starts a new sequence).
    private mutating func abortSequence(at byte: UInt8, into keys: inout [Key]) {
        keys.append(.unknown)
        sequence = []
        state = .ground
        processGround(byte, into: &keys)
    }

    static func controlSequenceKey(parameters: [UInt8], final: UInt8) -> Key {
        if parameters.first == UInt8(ascii: "<") {
            return MouseEvent.sgr(parameters: parameters.dropFirst(), final: final).map { .mouse($0) } ?? .unknown
        }
        // Other private parameters (replies to queries) and intermediates are not keys.
        guard parameters.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: ";")).contains($0) }) else {
            return .unknown
        }
        if let key = cursorKey(final: final) {
            // CSI 1;2 X: Shift (modifier 2) with an arrow.
            if parameters == Array("1;2".utf8) {
                switch key {
                case .up: return .shiftUp
                case .down: return .shiftDown
                case .left: return .shiftLeft
                case .right: return .shiftRight
                default: break
                }
            }
            // CSI 1;5 X: Ctrl (modifier 5) with up or down.
            if parameters == Array("1;5".utf8) {
                switch key {
                case .up: return .controlUp
                case .down: return .controlDown
                default: break
                }
            }
            return key
        }
        switch final {
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"): return tildeKey(firstParameter(parameters))
        default: return .unknown
        }
    }

    /// CSI n ~ keys (the VT220 editing keypad); modifiers after ';' are ignored.
    static func tildeKey(_ number: Int?) -> Key {
        switch number {
        case 1, 7: return .home
        case 3: return .delete
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        default: return .unknown
        }
    }

    static func firstParameter(_ parameters: [UInt8]) -> Int? {
        var value: Int?
        for byte in parameters {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
            value = (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            if value! > 10_000 { return nil }
        }
        return value
    }

    /// Arrows, Home and End: the same final byte after CSI and after SS3.
    static func cursorKey(final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return nil
        }
    }

    static func singleShift3Key(final: UInt8) -> Key {
        if let key = cursorKey(final: final) { return key }
        switch final {
        case UInt8(ascii: "M"): return .enter  // keypad Enter in application keypad mode
        default: return .unknown
        }
    }
}
