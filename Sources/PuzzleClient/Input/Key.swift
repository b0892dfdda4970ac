/// One key press decoded from terminal input by `KeyDecoder`.
public enum Key: Hashable, Sendable {
    /// A printable character (decoded from UTF-8; invalid input becomes U+FFFD).
    case character(Character)
    /// Return / Enter ("\r", "\n", or "\r\n" counted once).
    case enter
    case tab
    /// Shift-Tab (CSI Z).
    case backTab
    /// Backspace (0x7F or 0x08).
    case backspace
    /// Forward delete (CSI 3 ~).
    case delete
    case up
    case down
    case left
    case right
    /// An arrow with Shift held (CSI 1;2 A-D); other modifiers give the plain arrow.
    case shiftUp
    case shiftDown
    case shiftLeft
    case shiftRight
    /// Ctrl with the up or down arrow (CSI 1;5 A/B): the full screen zooms with them.
    case controlUp
    case controlDown
    case home
    case end
    case pageUp
    case pageDown
    /// A lone ESC, reported once the decoder knows no sequence follows.
    case escape
    /// Ctrl-C (0x03); raw mode delivers it as a byte instead of SIGINT.
    case interrupt
    /// Ctrl-D (0x04).
    case endOfFile
    /// Any other C0 control byte, as sent (Ctrl-A is 0x01, Ctrl-U is 0x15, ...).
    case control(UInt8)
    /// A complete escape sequence the decoder does not map to a key; already swallowed.
    case unknown
    /// An SGR mouse report (xterm mode 1006).
    case mouse(MouseEvent)
}

/// One SGR mouse report: `CSI < button ; column ; row M` (press or motion) or `... m` (release).
public struct MouseEvent: Hashable, Sendable {
    public enum Button: Hashable, Sendable {
        case left, middle, right
        /// Motion with no button held (any-motion tracking, mode 1003).
        case none
        case wheelUp, wheelDown
    }

    public enum Action: Hashable, Sendable {
        case press, release
        /// The pointer moved (with `button` held, or `.none`).
        case motion
    }

    public var button: Button
    public var action: Action
    /// Zero-based screen row and column.
    public var row: Int
    public var column: Int
    public var shift: Bool
    public var alt: Bool
    public var control: Bool

    public init(button: Button, action: Action, row: Int, column: Int, shift: Bool = false, alt: Bool = false, control: Bool = false) {
        self.button = button
        self.action = action
        self.row = row
        self.column = column
        self.shift = shift
        self.alt = alt
        self.control = control
    }

    /// Decodes the parameters after `CSI <` (`b;x;y`) with the final byte `M` or `m`;
    /// nil for anything else (wheel tilts, malformed reports).
    static func sgr(parameters: ArraySlice<UInt8>, final: UInt8) -> MouseEvent? {
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard fields.count == 3, final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
        var values: [Int] = []
        for field in fields {
            guard !field.isEmpty, field.count <= 5, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            values.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        let code = values[0]
        guard values[1] >= 1, values[2] >= 1 else { return nil }
        let button: Button
        var action: Action = final == UInt8(ascii: "m") ? .release : .press
        if code & 64 != 0 {
            switch code & 3 {
            case 0: button = .wheelUp
            case 1: button = .wheelDown
            default: return nil
            }
        } else {
            switch code & 3 {
            case 0: button = .left
            case 1: button = .middle
            case 2: button = .right
            default: button = .none
            }
            if code & 32 != 0 { action = .motion }
        }
        return MouseEvent(button: button, action: action, row: values[2] - 1, column: values[1] - 1,
                          shift: code & 4 != 0, alt: code & 8 != 0, control: code & 16 != 0)
    }
}
