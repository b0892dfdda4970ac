import Foundation

/// Log lines collected from a server under test (`TestServer(log:)`);
/// locked because the server logs from its own thread.
public final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    public init() {}

    /// Every line so far, oldest first.
    public var lines: [String] { lock.withLock { stored } }

    /// Adds one line (the logger's sink).
    public func append(_ line: String) {
        lock.withLock { stored.append(line) }
    }
}
