import Foundation
import PuzzleSystem
import PuzzleServer

/// A real server on 127.0.0.1 with an ephemeral port and its own temporary data
/// directory, running its event loop on a background thread. Shared by the
/// server, client and bench tests.
public final class TestServer: @unchecked Sendable {
    public let server: PuzzleServer
    public let config: ServerConfig
    public var port: Int { server.port }
    private let done = DispatchSemaphore(value: 0)
    private var stopped = false
    private let outcome = RunOutcome()

    /// What `run()` threw, once the loop has ended (nil while it runs or after a clean stop).
    final class RunOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var error: Error?
        func set(_ e: Error) { lock.lock(); error = e; lock.unlock() }
        func get() -> Error? { lock.lock(); defer { lock.unlock() }; return error }
    }

    /// - Parameter configure: adjusts the test defaults (tight limits, fast fsync).
    public init(rooms: [RoomSpec] = [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)],
         dataDirectory: String? = nil, seed: UInt64 = 7, storageDevice: StorageDevice = SystemStorageDevice(),
         configure: (inout ServerConfig) -> Void = { _ in }) throws {
        var c = ServerConfig()
        c.bind = "127.0.0.1"
        c.port = 0
        c.rooms = rooms
        c.dataDirectory = dataDirectory ?? TestServer.temporaryDirectory()
        c.logLevel = .error
        c.idleTimeoutSeconds = 0
        configure(&c)
        config = c
        server = try PuzzleServer(config: c, logger: Logger(level: c.logLevel), seed: seed, storageDevice: storageDevice)
        let server = self.server
        let done = self.done
        let outcome = self.outcome
        let thread = Thread {
            do { try server.run() } catch { outcome.set(error) }
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Stops the loop and waits (bounded) for its clean shutdown.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        server.stop()
        _ = done.wait(timeout: .now() + 20)
    }

    /// Waits (bounded) for the loop to end on its own and returns what it
    /// threw; nil if it is still running after `timeout` seconds or ended cleanly.
    public func waitForStop(timeout: Double = 10) -> Error? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        done.signal() // a later stop() returns at once
        stopped = true
        return outcome.get()
    }

    deinit { stop() }

    public static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "puzzle-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
