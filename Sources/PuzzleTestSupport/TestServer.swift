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

    /// - Parameters:
    ///   - log: collects the server's log lines (at the configured level)
    ///     instead of stderr, for tests that check what the server logs.
    ///   - configure: adjusts the test defaults (tight limits, fast fsync).
    public init(rooms: [RoomSpec] = [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)],
         dataDirectory: String? = nil, seed: UInt64 = 7, log: LogLines? = nil,
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
        let logger = log.map { Logger(level: c.logLevel, sink: $0.append) } ?? Logger(level: c.logLevel)
        server = try PuzzleServer(config: c, logger: logger, seed: seed)
        let server = self.server
        let done = self.done
        let thread = Thread {
            do { try server.run() } catch { FileHandle.standardError.write(Data("test server failed: \(error)\n".utf8)) }
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

    deinit { stop() }

    public static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "puzzle-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
