import Foundation
import PuzzleServer

/// The server `puzzle bench` starts for itself: in-process, on a free
/// loopback port, with the per-connection drag limit and the per-address
/// connection cap off (every bot connects from 127.0.0.1), and a temporary
/// data directory that is removed afterwards.
final class BenchServer {
    private let running: InProcessServer
    let directory: String

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
        running = try InProcessServer(config: c, seed: seed, threadName: "puzzle bench server")
    }

    var port: UInt16 { UInt16(running.port) }

    /// Stops the server (bounded wait) and removes its data directory.
    func stop() {
        running.stop(timeout: 30)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
