/// Failures of the terminal calls in `TerminalMode`, `TerminalResizeMonitor` and `TerminalWriter`.
public enum TerminalError: Error, Equatable, Sendable {
    /// The file descriptor does not refer to a terminal (raw mode needs one).
    case notATerminal(fd: Int32)
    /// Raw mode is process-wide state; a second `enterRaw` before `restore()` is refused.
    case alreadyActive
    /// A system call failed with `errno`.
    case system(call: String, errno: Errno)
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
            return "\(call) failed: \(code)"
        case .timedOut(let written):
            return "terminal output timed out after \(written) bytes"
        }
    }
}

extension TerminalError {
    /// Runs a C-convention call through `retryOnInterrupt`, naming it in the error.
    @inline(__always)
    static func check<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(TerminalError) -> T {
        switch retryOnInterrupt(body) {
        case .success(let value): return value
        case .failure(let error): throw .system(call: call, errno: error)
        }
    }
}
