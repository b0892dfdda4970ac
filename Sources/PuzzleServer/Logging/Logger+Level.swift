/// How important a log line is. Lines below a ``Logger``'s level are dropped unformatted.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    /// Per-request detail, for chasing a bug.
    case debug
    /// Start-up, shutdown, rooms opened and solved, players joining and leaving.
    case info
    /// Something unusual the server recovered from (a slow reader cut off, a bad line).
    case warn
    /// Something failed (a journal write, a listening socket).
    case error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The lowercase name used in config files and flags: `debug`, `info`, `warn`, `error`.
    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warn: "warn"
        case .error: "error"
        }
    }

    /// The label in a log line, padded to five columns so messages line up.
    public var label: String {
        switch self {
        case .debug: "DEBUG"
        case .info: "INFO "
        case .warn: "WARN "
        case .error: "ERROR"
        }
    }

    /// Reads a level name; `warning` is accepted for `warn`. Case-insensitive.
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warn", "warning": self = .warn
        case "error": self = .error
        default: return nil
        }
    }
}
