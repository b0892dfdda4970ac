/// Failures of the terminal calls in `TerminalMode`, `TerminalResizeMonitor` and `TerminalWriter`.
public enum TerminalError: Error, Equatable, Sendable {
    /// The file descriptor does not refer to a terminal (raw mode needs one).
    case notATerminal(fd: Int32)
    /// Raw mode is process-wide state; a second `enterRaw` before `restore()` is refused.
    case alreadyActive
    /// A system call failed; `errno` is the value it left.
    case system(call: String, errno: Int32)
    /// `TerminalWriter` waited longer than its deadline for the terminal to accept output.
    case timedOut(written: Int)
}

extension TerminalError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notATerminal(let fd):
            return "file descriptor \(fd) is not a terminal"
        case .alreadyActive:
            return "the terminal is already in raw mode"
        case .system(let call, let code):
            return "\(call) failed: errno \(code)"
        case .timedOut(let written):
            return "terminal output timed out after \(written) bytes"
        }
    }
}
