/// The escape sequences the terminal client uses, as bytes ready to write.
///
/// All are ECMA-48 / xterm sequences understood by every terminal emulator in common use.
public enum ANSI {
    /// ESC, the first byte of every sequence here.
    public static let escape: UInt8 = 0x1B

    /// Switches to the alternate screen (xterm 1049: also saves the cursor and clears).
    public static let enterAlternateScreen: [UInt8] = Array("\u{1B}[?1049h".utf8)
    /// Returns to the normal screen and restores what it showed before.
    public static let leaveAlternateScreen: [UInt8] = Array("\u{1B}[?1049l".utf8)
    /// Hides the text cursor.
    /// Synchronized output (DEC mode 2026): the terminal shows what comes between
    /// these two at once, so a frame is never seen half drawn. Terminals without
    /// the mode ignore both.
    public static let beginSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026h".utf8)
    public static let endSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026l".utf8)
    public static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    /// Shows the text cursor.
    public static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    /// Resets colours and attributes (SGR 0).
    public static let resetAttributes: [UInt8] = Array("\u{1B}[0m".utf8)
    /// Moves home and erases the whole screen.
    public static let clearScreen: [UInt8] = Array("\u{1B}[H\u{1B}[2J".utf8)

    /// Mouse reports while a button is held (xterm 1002), in SGR form (1006: any size, and
    /// releases say which button).
    public static let enableMouse: [UInt8] = Array("\u{1B}[?1002h\u{1B}[?1006h".utf8)
    /// Also reports motion with no button held (1003), for click-to-pick-up play.
    public static let enableMouseMotion: [UInt8] = Array("\u{1B}[?1003h".utf8)
    public static let disableMouseMotion: [UInt8] = Array("\u{1B}[?1003l".utf8)
    /// Turns every mouse mode above off again.
    public static let disableMouse: [UInt8] = Array("\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1006l".utf8)

    /// What to write when giving the terminal back: mouse reporting off, default attributes, a
    /// visible cursor, the normal screen. Meant for `TerminalMode.enterRaw(restoreOutput:)`, which
    /// also writes it on SIGINT/SIGTERM/SIGHUP and at exit.
    public static let restoreSequence: [UInt8] = disableMouse + resetAttributes + showCursor + leaveAlternateScreen

    /// Appends a cursor position (CUP) for a zero-based `row` and `column` to `bytes`.
    public static func appendMoveCursor(row: Int, column: Int, to bytes: inout [UInt8]) {
        bytes.append(escape)
        bytes.append(UInt8(ascii: "["))
        appendDecimal(row + 1, to: &bytes)
        bytes.append(UInt8(ascii: ";"))
        appendDecimal(column + 1, to: &bytes)
        bytes.append(UInt8(ascii: "H"))
    }

    /// Appends the decimal digits of a non-negative `value` (negative values write 0).
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value > 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        // Most significant digit first, without a scratch array (a frame writes thousands).
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
