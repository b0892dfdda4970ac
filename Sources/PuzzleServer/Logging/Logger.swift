import Foundation

/// Writes timestamped, levelled lines such as
/// `2026-11-21T21:51:23.456Z INFO  listening on 0.0.0.0:7171`.
///
/// Immutable, so one logger can be shared by every thread. Each line goes to
/// the sink in one call; the default sink writes it to stderr with a single
/// `write`, so lines from different threads do not interleave. A message below
/// the logger's level is never built: `log` takes it as an autoclosure.
public final class Logger: Sendable {
    /// Least important level written.
    public let level: LogLevel
    private let now: @Sendable () -> String
    private let sink: @Sendable (String) -> Void

    /// - Parameters:
    ///   - level: least important level written.
    ///   - now: the timestamp at the start of each line; defaults to the wall
    ///     clock in UTC, ISO-8601 with milliseconds.
    ///   - sink: receives each finished line, without a trailing newline;
    ///     defaults to ``standardErrorSink``.
    public init(
        level: LogLevel = .info,
        now: @escaping @Sendable () -> String = Logger.wallClockTimestamp,
        sink: @escaping @Sendable (String) -> Void = Logger.standardErrorSink
    ) {
        self.level = level
        self.now = now
        self.sink = sink
    }

    /// Whether a line at `level` would be written.
    @inlinable
    public func isEnabled(_ level: LogLevel) -> Bool {
        level >= self.level
    }

    /// Writes `message` at `level`, unless `level` is below the logger's level,
    /// in which case neither the message nor the timestamp is computed.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else {
            return
        }
        sink(now() + " " + level.label + " " + message())
    }

    /// Writes `message` at ``LogLevel/debug``.
    public func debug(_ message: @autoclosure () -> String) {
        log(.debug, message())
    }

    /// Writes `message` at ``LogLevel/info``.
    public func info(_ message: @autoclosure () -> String) {
        log(.info, message())
    }

    /// Writes `message` at ``LogLevel/warn``.
    public func warn(_ message: @autoclosure () -> String) {
        log(.warn, message())
    }

    /// Writes `message` at ``LogLevel/error``.
    public func error(_ message: @autoclosure () -> String) {
        log(.error, message())
    }

    /// Writes `line` and a newline to the process's standard error.
    public static let standardErrorSink: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
