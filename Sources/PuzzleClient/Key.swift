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
}
