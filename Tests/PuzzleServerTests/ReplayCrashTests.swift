import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import Testing

/// A replay survives `kill -9`: the moves of an unsolved puzzle are in the
/// journal (and, once compacted, in the snapshot), and a solve whose replay
/// file was not written yet is written at the next start.
@Suite(.serialized) struct ReplayCrashTests {
    @Test func killNineMidPuzzleLosesNoMoveOfTheReplay() throws {
        let data = TestServer.temporaryDirectory()
        var server = try ServerProcess(dataDirectory: data, rooms: ["duo jigsaw 2x2"])
        var (client, state) = try DurabilityTests.join(server, room: "duo")
        try ReplayTests.move(client, 0, to: ReplayTests.home(0, state))
        try ReplayTests.move(client, 1, to: ReplayTests.home(1, state))
        try server.kill()

        server = try ServerProcess(dataDirectory: data, rooms: ["duo jigsaw 2x2"])
        (client, state) = try DurabilityTests.join(server, room: "duo")
        try ReplayTests.move(client, 2, to: ReplayTests.home(2, state))
        #expect(try ReplayTests.move(client, 3, to: ReplayTests.home(3, state)).hasSuffix(" solved"))
        try server.kill()
        // As if the server had died between the solve's journal record and the replay file.
        try? FileManager.default.removeItem(atPath: data + "/rooms/duo/replay.0")

        server = try ServerProcess(dataDirectory: data, rooms: ["duo jigsaw 2x2"])
        (client, _) = try DurabilityTests.join(server, room: "duo")
        let (reply, _, replay) = try ReplayTests.replay(client, 0)
        #expect(reply == "OK replay 0 4", "\(server.stderrTail)")
        #expect(replay?.moves.map(\.piece) == [0, 1, 2, 3])
        #expect(replay.map { $0.state(after: 4).correctCount } == 4)
        try server.kill()
    }
}
