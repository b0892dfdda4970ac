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

    /// Binds, restores rooms, and starts the loop on a new thread.
    /// `logger` nil: logs at the config's level to stderr.
    public init(config: ServerConfig, seed: UInt64, logger: Logger? = nil, threadName: String = "puzzle-server") throws {
        self.config = config
        server = try PuzzleServer(config: config, logger: logger ?? Logger(level: config.logLevel), seed: seed)
        let server = self.server
        let done = self.done
        let thread = Thread {
            do { try server.run() } catch {
                FileHandle.standardError.write(Data("\(threadName): server loop failed: \(error)\n".utf8))
            }
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.name = threadName
        thread.start()
    }

    /// Stops the loop and waits (at most `timeout` seconds) for its clean shutdown. Once.
    public func stop(timeout: Double = 20) {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        guard first else { return }
        server.stop()
        _ = done.wait(timeout: .now() + timeout)
    }

    deinit { stop() }
}
