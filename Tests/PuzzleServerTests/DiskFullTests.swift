import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// A real, small file system (tmpfs) that fills up under the server (issue #8,
/// item 4): a drop that cannot be journalled is refused with `ERR STORAGE` and
/// not applied; everything else keeps working; once space is back, drops are
/// accepted again. Needs permission to mount tmpfs (root in a container that
/// allows it); skipped, with the reason, where that is not allowed.
@Suite(.serialized) struct DiskFullTests {
    @Test(.enabled(if: SmallFileSystem.mountable, "mounting a tmpfs is not permitted here (needs root and CAP_SYS_ADMIN)"))
    func fullDiskRefusesDropsWithStorageErrorAndRecovers() throws {
        let fs = try SmallFileSystem(kilobytes: 256)
        defer { fs.unmount() }
        let data = fs.path + "/data"
        let server = try ServerProcess(dataDirectory: data, rooms: ["full jigsaw 5x5", "calm jigsaw 2x2"])
        let (client, state) = try DurabilityTests.join(server, room: "full")
        let watcher = try LineClient(port: server.port, name: "watcher")
        _ = try watcher.hello("watcher")
        #expect(try watcher.request("JOIN calm").reply.hasPrefix("OK joined calm"))

        // Fill every free block, then drop pieces onto the table until a drop
        // finds no room left in the journal's last block.
        let filler = try fs.fill()
        var refused: (piece: Int, reply: String)?
        var drops = 0
        // Six spots in the table's margins (52x28, the board at 16,4), ten
        // units apart and off the start slots' grid of five: no piece dropped
        // there lies beside a neighbour, so none joins into a part.
        let spots = [(2, 2), (2, 12), (2, 22), (42, 2), (42, 12), (42, 22)]
        for i in 0..<2000 where refused == nil {
            let piece = i % state.pieceCount
            let (x, y) = spots[i % spots.count]
            #expect(try client.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            #expect(try client.request("DRAG \(piece) \(x) \(y)").reply.hasPrefix("OK dragged"))
            let reply = try client.request("DROP \(piece)").reply
            if reply.hasPrefix("OK dropped") { drops += 1 } else { refused = (piece, reply) }
        }
        let (piece, reply) = try #require(refused, "2000 drops fitted into a full file system")
        #expect(reply.hasPrefix("ERR STORAGE "), "reply: \(reply); stderr: \(server.stderrTail)")
        #expect(server.process.isRunning, "stderr: \(server.stderrTail)")

        // The refused drop was not applied: the piece is still held, where it was.
        let (sync, lines) = try client.request("SYNC")
        #expect(sync.hasPrefix("OK sync"))
        let mirror = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
        #expect(mirror.holder(of: piece) != nil, "refused drop released the piece")
        // Everything that needs no disk still works, in this room and the other.
        #expect(try client.request("PING").reply == "PONG")
        #expect(try watcher.request("GRAB 1").reply == "OK grabbed 1")
        #expect(try watcher.request("DRAG 1 0 0").reply.hasPrefix("OK dragged 1"))
        #expect(try watcher.request("RELEASE 1").reply == "OK released 1")

        // Space comes back: the same drop is accepted, and survives a restart.
        try FileManager.default.removeItem(atPath: filler)
        let again = try client.request("DROP \(piece)").reply
        #expect(again.hasPrefix("OK dropped \(piece)"), "reply: \(again); stderr: \(server.stderrTail)")
        let kept = try #require(DurabilityTests.droppedLocation(again)).1
        try server.kill()
        let restarted = try ServerProcess(dataDirectory: data, rooms: ["full jigsaw 5x5", "calm jigsaw 2x2"])
        let (_, restored) = try DurabilityTests.join(restarted, room: "full")
        #expect(restored.pieces[piece].location == kept)
        try restarted.kill()
    }
}

/// A tmpfs of a fixed size mounted on a fresh directory, for tests that need
/// a disk that really fills up.
struct SmallFileSystem {
    let path: String

    /// Whether this process may mount one (tried once, with a throwaway mount).
    static let mountable: Bool = {
        guard let probe = try? SmallFileSystem(kilobytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    init(kilobytes: Int) throws {
        path = NSTemporaryDirectory() + "puzzle-tmpfs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
        guard status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw ServerProcessError(description: "mount tmpfs on \(path) failed with status \(status)")
        }
    }

    func unmount() {
        // A server still running on it (a test that failed part-way) keeps it
        // busy: detach it lazily rather than leave a mount behind.
        if Self.run("/bin/umount", [path]) != 0 { _ = Self.run("/bin/umount", ["-l", path]) }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file until the file system is full. - Returns: its path.
    func fill() throws -> String {
        let filler = path + "/filler"
        let fd = try FileDescriptor.open(filler, .replace)
        defer { try? fd.close() }
        let block = [UInt8](repeating: 0x2E, count: 1024)
        while true {
            do { try fd.writeAll(block) } catch where error == .noSpace { break }
        }
        // A few bytes may still fit in the last block: take them too.
        while (try? fd.writeAll([0x2E])) != nil {}
        return filler
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
