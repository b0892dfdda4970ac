import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Damaged room files (issue #8, item 3), met by the real server at start-up:
/// evidence is never destroyed, nothing beyond the damaged part is lost, and
/// what happened is in the log.
@Suite(.serialized) struct DamagedRoomFilesTests {
    static let room = "harm jigsaw 3x3"

    /// A room with three acknowledged moves, the server then killed with SIGKILL:
    /// the room's only snapshot is the one written when it was created, and the
    /// journal holds the three records.
    static func roomWithJournal() throws -> (data: String, acked: DurabilityTests.Acknowledged) {
        let data = TestServer.temporaryDirectory()
        let server = try ServerProcess(dataDirectory: data, rooms: [room])
        let (client, state) = try DurabilityTests.join(server, room: "harm")
        var acked: DurabilityTests.Acknowledged = [:]
        try DurabilityTests.move(0, to: DurabilityTests.home(of: 0, in: state), client, &acked)
        try DurabilityTests.move(4, to: DurabilityTests.home(of: 4, in: state), client, &acked)
        try DurabilityTests.move(2, to: Point(x: 0, y: 0), client, &acked)
        try server.kill()
        #expect(acked.count == 3)
        return (data, acked)
    }

    static func files(_ data: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: data + "/rooms/harm")) ?? []).sorted()
    }

    @Test func corruptOnlySnapshotWithIntactJournalRecoversEveryMove() throws {
        let (data, acked) = try Self.roomWithJournal()
        let path = data + "/rooms/harm/snapshot"
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: path))
        let damaged = snapshot.prefix(snapshot.count / 2)
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".prev"))

        let server = try ServerProcess(dataDirectory: data, rooms: [Self.room])
        let (_, state) = try DurabilityTests.join(server, room: "harm")
        try DurabilityTests.checkRestored(state, keeps: acked)
        // The damaged snapshot is kept, byte for byte, under another name, and the log says so.
        let aside = Self.files(data).filter { $0.hasPrefix("snapshot.damaged-") }
        #expect(aside.count == 1, "files: \(Self.files(data))")
        if let name = aside.first {
            #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/rooms/harm/" + name)) == damaged)
        }
        #expect(server.stderrTail.contains("snapshot.damaged-"), "stderr: \(server.stderrTail)")
        try server.kill()
    }

    @Test func configuredRoomWithUnreadableFilesIsNotRecreatedOverThem() throws {
        let (data, _) = try Self.roomWithJournal()
        let directory = data + "/rooms/harm"
        var before: [String: Data] = [:]
        for name in Self.files(data) where name.hasPrefix("snapshot") {
            // Every snapshot there is (the only one, and any kept copy of it) is unreadable.
            try Data("# puzzle-room snapshot 1 time=5\nS room harm\n# end\n".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        for name in Self.files(data) {
            before[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }

        let server = try ServerProcess(dataDirectory: data, rooms: [Self.room, "other jigsaw 2x2"])
        let client = try LineClient(port: server.port, name: "p")
        _ = try client.hello("tester")
        #expect(try client.request("JOIN harm").reply.hasPrefix("ERR "))
        #expect(try client.request("CREATE harm jigsaw 2x2").reply.hasPrefix("ERR "))
        #expect(try client.request("JOIN other").reply.hasPrefix("OK joined other"))
        // Every byte of the damaged room is still on disk (under its name or moved aside).
        var after: [Data] = []
        for name in Self.files(data) {
            after.append(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        }
        for (name, bytes) in before {
            #expect(after.contains(bytes), "\(name) lost; files now: \(Self.files(data))")
        }
        #expect(server.stderrTail.contains("harm"), "stderr: \(server.stderrTail)")
        try server.kill()
    }

    @Test func vanishedJournalIsReported() throws {
        let (data, _) = try Self.roomWithJournal()
        try FileManager.default.removeItem(atPath: data + "/rooms/harm/journal")
        let server = try ServerProcess(dataDirectory: data, rooms: [Self.room])
        _ = try DurabilityTests.join(server, room: "harm")
        #expect(server.stderrTail.contains("journal"), "stderr: \(server.stderrTail)")
        #expect(server.stderrTail.contains("missing"), "stderr: \(server.stderrTail)")
        try server.kill()
    }

    @Test func changedDigitInAJournalRecordIsDetectedNotApplied() throws {
        let (data, acked) = try Self.roomWithJournal()
        let path = data + "/rooms/harm/journal"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        // Piece 2 went to the table at (0, 0): move it, in the file, to (1, 0).
        let record = try #require(text.split(separator: "\n").first { $0.contains(" placed 2 ") && $0.contains(" table 0 0 ") })
        text = text.replacingOccurrences(of: String(record), with: record.replacingOccurrences(of: " table 0 0 ", with: " table 1 0 "))
        try text.write(toFile: path, atomically: false, encoding: .utf8)

        let server = try ServerProcess(dataDirectory: data, rooms: [Self.room])
        let (_, state) = try DurabilityTests.join(server, room: "harm")
        #expect(state.pieces[2].location != .table(Point(x: 1, y: 0)), "the changed record was applied")
        #expect(state.pieces[0].location == acked[0] && state.pieces[4].location == acked[4])
        #expect(server.stderrTail.contains("journal"), "stderr: \(server.stderrTail)")
        try server.kill()
    }
}
