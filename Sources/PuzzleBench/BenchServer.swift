import Foundation
import PuzzleServer

/// The server `puzzle bench` starts for itself: in-process, on a free
/// loopback port, with the per-connection drag limit and the per-address
/// connection cap off (every bot connects from 127.0.0.1), and a temporary
/// data directory that is removed afterwards.
final class BenchServer: @unchecked Sendable {
    let server: PuzzleServer
    let directory: String
    private let done = DispatchSemaphore(value: 0)

    init(maxConnections: Int, seed: UInt64) throws {
        directory = NSTemporaryDirectory() + "puzzle-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var c = ServerConfig()
        c.bind = "127.0.0.1"
        c.port = 0
        c.dragRateLimit = 0
        c.maxConnections = maxConnections
        c.maxConnectionsPerAddress = 0
        c.idleTimeoutSeconds = 0
        c.dataDirectory = directory
        c.logLevel = .warn
        c.rooms = []
        server = try PuzzleServer(config: c, logger: Logger(level: c.logLevel), seed: seed)
        let server = self.server
        let done = self.done
        let thread = Thread {
            do { try server.run() } catch {
                FileHandle.standardError.write(Data("puzzle bench: in-process server failed: \(error)\n".utf8))
            }
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.name = "puzzle-server"
        thread.start()
    }

    var port: UInt16 { UInt16(server.port) }

    /// Stops the server (bounded wait) and removes its data directory.
    func stop() {
        server.stop()
        _ = done.wait(timeout: .now() + 30)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
