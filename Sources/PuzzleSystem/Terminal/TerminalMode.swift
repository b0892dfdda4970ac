#if canImport(Glibc)
import Glibc
#endif

/// Raw-ish mode for the controlling terminal, with the original attributes put back on
/// `restore()`, at `exit`, and on SIGINT/SIGTERM/SIGHUP.
///
/// Raw mode here means: no echo, no line buffering, no signal keys (Ctrl-C arrives as byte 0x03
/// and the client decides), no flow control (Ctrl-S/Ctrl-Q arrive too), no CR→NL translation on
/// input (Enter arrives as "\r"), 8-bit characters. Output post-processing (`OPOST`) stays on, so
/// writing "\n" still returns the carriage.
///
/// The saved attributes are process-wide state (there is one terminal), so only one
/// `TerminalMode` may be active at a time.
public struct TerminalMode: Sendable {
    /// The terminal file descriptor whose attributes were changed.
    public let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    /// Whether `fd` refers to a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        Syscall.isatty(fd) == 1
    }

    /// Rows and columns of the terminal on `fd`, or nil when unknown (not a terminal, or the
    /// terminal reports a zero size, as a fresh pseudo-terminal does).
    public static func windowSize(_ fd: Int32) -> (rows: Int, cols: Int)? {
        var rows: UInt16 = 0
        var cols: UInt16 = 0
        guard Syscall.windowSize(fd, &rows, &cols) == 0, rows > 0, cols > 0 else { return nil }
        return (Int(rows), Int(cols))
    }

    /// Saves the attributes of `fd` and switches it to raw mode.
    ///
    /// - Parameters:
    ///   - fd: the terminal, usually standard input.
    ///   - restoreOutput: bytes written to `fd` just before the attributes are restored, by
    ///     `restore()` and by the exit/signal paths (for example show-cursor and
    ///     leave-alternate-screen). At most 128 bytes are kept.
    ///   - readMinimum: `VMIN`. 1 (the default) makes `read` wait for at least one byte, meant
    ///     for use after `poll`; 0 makes `read` return 0 at once when nothing is queued, which is
    ///     then indistinguishable from end of file.
    public static func enterRaw(
        fd: Int32,
        restoreOutput: [UInt8] = [],
        readMinimum: UInt8 = 1
    ) throws(TerminalError) -> TerminalMode {
        guard isTerminal(fd) else { throw .notATerminal(fd: fd) }
        return try withRestoringSignalsBlocked { () throws(TerminalError) -> TerminalMode in
            let state = terminalRestoreState
            guard state.pointee.armed == 0 else { throw .alreadyActive }
            var original = termios()
            _ = try TerminalError.check("tcgetattr") { Syscall.tcgetattr(fd, &original) }
            var raw = original
            makeRaw(&raw, readMinimum: readMinimum)

            let count = min(restoreOutput.count, TerminalRestoreState.outputCapacity)
            for index in 0..<count { terminalRestoreOutput[index] = restoreOutput[index] }
            state.pointee.fd = fd
            state.pointee.saved = original
            state.pointee.outputCount = count
            state.pointee.armed = 1
            installSignalHandlers()

            // TCSANOW rather than TCSAFLUSH: keys typed before the switch are not thrown away.
            do throws(TerminalError) {
                _ = try TerminalError.check("tcsetattr") { Syscall.tcsetattr(fd, TCSANOW, &raw) }
            } catch {
                state.pointee.armed = 0
                uninstallSignalHandlers()
                throw error
            }
            return TerminalMode(fd: fd)
        }
    }

    /// Writes the restore output and puts back the exact attributes saved by `enterRaw`, then
    /// reinstates the previous signal dispositions. Safe to call more than once.
    public func restore() {
        try? Self.withRestoringSignalsBlocked { () throws(TerminalError) in
            let state = terminalRestoreState
            guard state.pointee.armed != 0, state.pointee.fd == fd else { return }
            state.pointee.armed = 0
            let output = Array(UnsafeBufferPointer(start: terminalRestoreOutput, count: state.pointee.outputCount))
            try? TerminalWriter(fd: fd).writeAll(output, timeoutMilliseconds: 1000)
            // TCSADRAIN: the restore output reaches the terminal under the raw settings it was
            // written for, and pending input is kept for whoever reads next.
            _ = retryOnInterrupt { Syscall.tcsetattr(fd, TCSADRAIN, &state.pointee.saved) }
            Self.uninstallSignalHandlers()
        }
    }

    /// Whether this mode is still in effect (not yet restored by `restore()`, exit or a signal).
    public var isActive: Bool {
        terminalRestoreState.pointee.armed != 0 && terminalRestoreState.pointee.fd == fd
    }

    /// The termios changes of raw mode, documented on the type.
    static func makeRaw(_ attributes: inout termios, readMinimum: UInt8) {
        attributes.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        attributes.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        attributes.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        attributes.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &attributes.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = readMinimum
            controlCharacters[Int(VTIME)] = 0
        }
    }
}
