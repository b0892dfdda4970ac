import Foundation

/// A server whose event loop runs on a thread of this process: the one
/// `puzzle bench` starts for itself and the ones the tests start.
public final class InProcessServer: @unchecked Sendable {
    public let server: PuzzleServer
    public let config: ServerConfig
    /// The port it listens on (the config's port 0 picks a free one).
    public var port: Int { server.port }
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    private var failure: Error?

    /// Binds, restores rooms, and starts the loop on a new thread. `logger` nil:
    /// logs at the config's level to stderr.
    public init(config: ServerConfig, seed: UInt64, logger: Logger? = nil,
                storageDevice: StorageDevice = SystemStorageDevice(), readinessQueue: (any ReadinessQueue)? = nil,
                threadName: String = "puzzle-server") throws {
        self.config = config
        server = try PuzzleServer(config: config, logger: logger ?? Logger(level: config.logLevel), seed: seed,
                                  storageDevice: storageDevice, readinessQueue: readinessQueue)
        let server = self.server
        let thread = Thread { [self] in
            do { try server.run() } catch {
                lock.lock()
                failure = error
                lock.unlock()
            }
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.name = threadName
        thread.start()
    }

    /// Stops the loop and waits (at most `timeout` seconds) for its clean shutdown. Once.
    public func stop(timeout: Double = 20) {
        guard markStopped() else { return }
        server.stop()
        _ = done.wait(timeout: .now() + timeout)
    }

    /// Waits (at most `timeout` seconds) for the loop to end on its own; what it
    /// threw, or nil if it still runs or ended cleanly.
    public func waitForStop(timeout: Double = 10) -> Error? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        _ = markStopped()
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    private func markStopped() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let first = !stopped
        stopped = true
        return first
    }

    deinit { stop() }
}
