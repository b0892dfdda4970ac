import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Room files holding values at the extremes of their types (issue #8, item 2)
/// must never trap the real server: not while it loads them, and not on the
/// JOIN, GRAB, DRAG, DROP, HINT and NEXT that follow. Such a room is either
/// loaded with every value in range or treated as damaged; either way the
/// server keeps answering.
@Suite(.serialized) struct StoredExtremesTests {
    static let room = "edge jigsaw 2x2"

    /// One way to damage a stored room: a change to its snapshot file, and the
    /// journal to put next to it (lines without checksums: the format before
    /// checksums, which is still read).
    struct Damage: CustomTestStringConvertible, Sendable {
        var name: String
        var snapshot: @Sendable (String) -> String = { $0 }
        var journal: String?
        var testDescription: String { name }
    }

    static func field(_ key: String, _ value: String) -> @Sendable (String) -> String {
        { text in
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("S room ") || line.hasPrefix("# puzzle-room snapshot")
                    ? line.split(separator: " ").map { $0.hasPrefix(key + "=") ? "\(key)=\(value)" : String($0) }.joined(separator: " ")
                    : String(line)
            }.joined(separator: "\n")
        }
    }

    static let max = "9223372036854775807"
    static let min = "-9223372036854775808"
    static let cases: [Damage] = [
        Damage(name: "snapshot time=Int64.min", snapshot: field("time", min)),
        Damage(name: "snapshot time=Int64.max-1", snapshot: field("time", "9223372036854775806")),
        Damage(name: "elapsed=Int64.max", snapshot: field("elapsed", max)),
        Damage(name: "elapsed=-Int64.max", snapshot: field("elapsed", "-9223372036854775807")),
        Damage(name: "seq=UInt64.max", snapshot: field("seq", "18446744073709551615")),
        Damage(name: "lease=Int64.max", snapshot: field("lease", max)),
        Damage(name: "hint=Int64.max", snapshot: field("hint", max)),
        Damage(name: "hold=Int64.max", snapshot: field("hold", max)),
        Damage(name: "puzzle=Int64.max", snapshot: field("puzzle", max)),
        Damage(name: "solved=Int64.max", snapshot: field("solved", max)),
        Damage(name: "piece on the table at Int64.max", snapshot: { $0.replacingOccurrences(of: "S piece 0 table ", with: "S piece 0 table \(max) 0 0\n#") }),
        Damage(name: "journal @Int64.min", journal: "@\(min) EV 1 placed 0 1 cell 0 0 0\n"),
        Damage(name: "journal @Int64.max", journal: "@\(max) EV 1 placed 0 1 cell 0 0 0\n"),
        Damage(name: "journal solved elapsed Int64.max", journal: "@5 EV 1 placed 0 1 cell 0 0 0\n@6 EV 2 solved 0 \(max)\n"),
        Damage(name: "journal next puzzle Int64.max", journal: "@5 EV 1 next \(max) jigsaw 3x3 off sunset\n"),
        Damage(name: "journal seq UInt64.max", journal: "@5 EV 18446744073709551615 placed 0 1 cell 0 0 0\n"),
        Damage(name: "journal piece cell Int64.max", journal: "@5 EV 1 placed 0 1 cell \(max) \(max) 0\n"),
    ]

    @Test(arguments: cases)
    func serverSurvivesExtremeStoredValue(_ damage: Damage) throws {
        let data = TestServer.temporaryDirectory()
        // A stored room with its pieces on the table, written by a clean shutdown.
        var server = try ServerProcess(dataDirectory: data, rooms: [Self.room])
        try Signals.send(.terminate, to: server.process.processIdentifier)
        _ = try server.waitForExit()
        let directory = data + "/rooms/edge"
        let snapshot = try String(contentsOfFile: directory + "/snapshot", encoding: .utf8)
        let changed = damage.snapshot(snapshot)
        try changed.write(toFile: directory + "/snapshot", atomically: false, encoding: .utf8)
        if let journal = damage.journal {
            try journal.write(toFile: directory + "/journal", atomically: false, encoding: .utf8)
        }

        server = try ServerProcess(dataDirectory: data, rooms: [Self.room])
        let client = try LineClient(port: server.port, name: "edge")
        _ = try client.hello("tester")
        let join = try client.request("JOIN edge").reply
        if join.hasPrefix("OK joined") {
            for request in ["GRAB 0", "DRAG 0 0 0", "DROP 0", "HINT", "GRAB 1", "DROP 1", "NEXT", "SYNC", "DIGEST"] {
                let reply = try client.request(request).reply
                #expect(reply.hasPrefix("OK") || reply.hasPrefix("ERR"), "\(request): \(reply)")
            }
        }
        #expect(try client.request("PING").reply == "PONG", "stderr: \(server.stderrTail)")
        #expect(server.process.isRunning, "server died: \(server.stderrTail)")
        try server.kill()
    }
}
