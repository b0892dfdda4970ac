import Foundation

/// Log lines collected from a server under test (`TestServer(log:)`);
/// locked because the server logs from its own thread.
public final class LogLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: [String] = []

    public init() {}

    /// Every line so far, oldest first.
    public var lines: [String] { condition.withLock { stored } }

    /// Adds one line (the logger's sink).
    public func append(_ line: String) {
        condition.withLock {
            stored.append(line)
            condition.broadcast()
        }
    }

    /// Waits (up to `timeout` seconds) for a line satisfying `match`; returns
    /// it, or nil if none came in time. Woken by each new line, never polling.
    public func waitFor(timeout: Double = 10, _ match: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var checked = 0
        while true {
            if let line = stored[checked...].first(where: match) { return line }
            checked = stored.count
            guard condition.wait(until: deadline) else { return stored[checked...].first(where: match) }
        }
    }
}
