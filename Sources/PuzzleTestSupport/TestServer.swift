import PuzzleCore
import PuzzleProtocol
import Foundation
import PuzzleSystem
import PuzzleServer

/// A real server on 127.0.0.1 with an ephemeral port and its own temporary data
/// directory, running its event loop on a background thread. Shared by the
/// server, client and bench tests.
public final class TestServer: @unchecked Sendable {
    private let running: InProcessServer
    public var server: PuzzleServer { running.server }
    public var config: ServerConfig { running.config }
    public var port: Int { running.port }

    /// - Parameters:
    ///   - log: collects the server's log lines (at the configured level)
    ///     instead of stderr, for tests that check what the server logs.
    ///   - storageDevice: where the store writes (tests inject failures).
    ///   - readinessQueue: what watches the descriptors (nil: epoll; tests inject failures).
    ///   - configure: adjusts the test defaults (tight limits, fast fsync).
    public init(rooms: [RoomSpec] = [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)],
         dataDirectory: String? = nil, seed: UInt64 = 7, log: LogLines? = nil,
         storageDevice: StorageDevice = SystemStorageDevice(), readinessQueue: (any ReadinessQueue)? = nil,
         configure: (inout ServerConfig) -> Void = { _ in }) throws {
        var c = ServerConfig()
        c.bind = "127.0.0.1"
        c.port = 0
        c.rooms = rooms
        c.dataDirectory = dataDirectory ?? TestServer.temporaryDirectory()
        c.logLevel = .error
        c.idleTimeoutSeconds = 0
        // Tests that play over telnet turn it on (`configure`); the rest need no gateway.
        c.telnetPort = .off
        configure(&c)
        let logger = log.map { Logger(level: c.logLevel, sink: $0.append) } ?? Logger(level: c.logLevel)
        running = try InProcessServer(config: c, seed: seed, logger: logger, storageDevice: storageDevice,
                                    readinessQueue: readinessQueue, threadName: "test-server")
    }

    /// Stops the loop and waits (bounded) for its clean shutdown.
    public func stop() {
        running.stop()
    }

    /// Waits (bounded) for the loop to end on its own and returns what it
    /// threw; nil if it is still running after `timeout` seconds or ended cleanly.
    public func waitForStop(timeout: Double = 10) -> Error? {
        running.waitForStop(timeout: timeout)
    }

    public static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "puzzle-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
