import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol

/// A player is a person (issue 10): over real sockets against the real
/// `puzzle serve` process, the hint stays used and the moves stay counted
/// after LEAVE/JOIN, after a reconnect with the resume token and after a
/// kill -9 and restart; the puzzle clock never goes back.
@Suite(.serialized) struct PlayerIdentityTests {
    /// HELLO 2; returns the id and the resume token.
    static func hello2(_ client: LineClient, _ name: String, token: String? = nil) throws -> (id: Int, token: String) {
        let reply = try client.request("HELLO 2 \(name)" + (token.map { " \($0)" } ?? "")).reply
        guard case .hello(2, let id, name, let given?)? = ReplyCodec.decode(reply[...]) else {
            throw ServerProcessError(description: "HELLO 2 refused: \(reply)")
        }
        return (id.rawValue, given)
    }

    static func join(_ client: LineClient, _ room: String) throws -> RoomSnapshot {
        let (reply, lines) = try client.request("JOIN \(room)")
        guard reply.hasPrefix("OK joined \(room)") else { throw ServerProcessError(description: "JOIN refused: \(reply)") }
        return try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
    }

    static func roomLine(_ lines: [String]) -> String { lines.first { $0.hasPrefix("S room ") } ?? "" }

    @Test func hintMovesAndIdSurviveLeaveJoinReconnectAndRestart() throws {
        let data = TestServer.temporaryDirectory()
        var server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        let a = try LineClient(port: server.port, name: "alice")
        let (id, token) = try Self.hello2(a, "alice")
        var snap = try Self.join(a, "den")
        #expect(try a.request("HINT").reply.hasPrefix("OK hint "))
        var acked: DurabilityTests.Acknowledged = [:]
        try DurabilityTests.move(0, to: DurabilityTests.home(of: 0, in: snap.state), a, &acked)

        // LEAVE then JOIN on one connection: the same player, hint still used.
        #expect(try a.request("LEAVE").reply == "OK left den")
        snap = try Self.join(a, "den")
        #expect(snap.state.players[PlayerID(id)]?.moves == 1)
        #expect(try a.request("HINT").reply.hasPrefix("ERR HINT_USED "))

        // A second live "alice" is refused; with the token it is alice coming back.
        let b = try LineClient(port: server.port, name: "other")
        _ = try Self.hello2(b, "alice")
        #expect(try b.request("JOIN den").reply.hasPrefix("ERR NAME_TAKEN "))
        let again = try LineClient(port: server.port, name: "alice-again")
        #expect(try Self.hello2(again, "alice", token: token).id == id)
        let closed = try a.waitForClose()
        #expect(closed.contains { $0.hasPrefix("BYE RESUMED") })
        let (joinedAgain, joinLines) = try again.request("JOIN den")
        #expect(joinedAgain.hasPrefix("OK joined den id=\(id) "))
        snap = try SnapshotCodec.decode(joinLines.map { Substring($0) }, now: 0)
        #expect(snap.state.players[PlayerID(id)].map { "\($0.moves) \($0.totalMoves) \($0.hintUsed)" } == "1 1 true")
        #expect(try again.request("HINT").reply.hasPrefix("ERR HINT_USED "))
        // The play time this JOIN's snapshot reports is durable: a clock mark
        // vouches for it (a return within the dropped link's stay writes no
        // `joined` record).
        let elapsedBefore = try #require(Self.elapsed(Self.roomLine(joinLines)))
        let played = try #require(Self.elapsed(Self.roomLine(try again.request("SYNC").state)))
        #expect(played >= elapsedBefore)

        // kill -9 and restart: the token still resumes, the counters are kept,
        // and the clock never reads less than any play time a client was shown
        // before the kill (the SYNC just before it): clock marks vouch for it.
        try server.kill()
        server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        let restarted = try LineClient(port: server.port, name: "alice-restart")
        #expect(try Self.hello2(restarted, "alice", token: token).id == id)
        let (reply, lines) = try restarted.request("JOIN den")
        #expect(reply.hasPrefix("OK joined den id=\(id) "))
        snap = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snap.state.players[PlayerID(id)].map { "\($0.moves) \($0.hintUsed)" } == "1 true")
        #expect(try restarted.request("HINT").reply.hasPrefix("ERR HINT_USED "))
        let elapsedAfter = try #require(Self.elapsed(Self.roomLine(lines)))
        #expect(elapsedAfter >= played)
        // A newcomer after the restart gets a fresh id, never a remembered one.
        let newcomer = try LineClient(port: server.port, name: "carol")
        #expect(try Self.hello2(newcomer, "carol").id > id)
        try server.kill()
    }

    static func elapsed(_ roomLine: String) -> Int64? {
        roomLine.split(separator: " ").first { $0.hasPrefix("elapsed=") }.flatMap { Int64($0.dropFirst(8)) }
    }
}
