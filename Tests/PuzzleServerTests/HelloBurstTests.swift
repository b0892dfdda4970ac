import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleServer

/// New players' tokens and ids are synced once a loop turn, before the
/// turn's replies, as moves are (issue 31): a burst of HELLOs costs a few
/// syncs, not one each, and no token is handed out before it is on disk.
@Suite(.serialized) struct HelloBurstTests {
    /// Sends `HELLO 2 <name>` on every client at once, then reads every reply:
    /// each player's id and token.
    static func burst(_ clients: [LineClient], prefix: String) throws -> [(id: Int, token: String)] {
        for (i, c) in clients.enumerated() { try c.send("HELLO 2 \(prefix)\(i)") }
        return try clients.enumerated().map { i, c in
            let reply = try c.awaitReply(timeout: 60).reply
            guard case .hello(2, let id, _, let token?)? = ReplyCodec.decode(reply[...]) else {
                throw ServerProcessError(description: "HELLO 2 of \(prefix)\(i) refused: \(reply)")
            }
            return (id.rawValue, token)
        }
    }

    /// 200 HELLOs sent at once are all answered, each with its own id and
    /// token, for far fewer syncs than players (one a turn per file written:
    /// it used to be one each).
    @Test func aBurstOfHellosIsSyncedTogether() throws {
        let device = FaultyStorageDevice()
        let server = try TestServer(storageDevice: device) {
            $0.maxConnections = 400
            $0.maxConnectionsPerAddress = 0
        }
        defer { server.stop() }
        let count = 200
        let clients = try (0..<count).map { try LineClient(port: server.port, name: "c\($0)") }
        // Every connection is accepted (a PING answered) before the burst.
        for c in clients { #expect(try c.request("PING", timeout: 60).reply == "PONG") }
        let before = device.syncCount
        let players = try Self.burst(clients, prefix: "p")
        let syncs = device.syncCount - before
        #expect(Set(players.map(\.id)).count == count)
        #expect(Set(players.map(\.token)).count == count)
        #expect(syncs >= 1, "the players file is synced through the store's device")
        #expect(syncs <= count / 2, "\(syncs) syncs for \(count) HELLOs")
        // Every token resumes (on a new connection, as after a dropped link).
        let again = try LineClient(port: server.port, name: "again")
        #expect(try PlayerIdentityTests.hello2(again, "p7", token: players[7].token).id == players[7].id)
    }

    /// Every token a burst's replies handed out resumes its player after a
    /// kill -9 straight after the last reply: none was acknowledged before
    /// it was on disk.
    @Test func aBurstsTokensSurviveKillNine() throws {
        let data = TestServer.temporaryDirectory()
        var server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        let clients = try (0..<50).map { try LineClient(port: server.port, name: "c\($0)") }
        let players = try Self.burst(clients, prefix: "k")
        try server.kill()
        server = try ServerProcess(dataDirectory: data, rooms: ["den jigsaw 3x3"])
        for (i, player) in players.enumerated() {
            let c = try LineClient(port: server.port, name: "back\(i)")
            #expect(try PlayerIdentityTests.hello2(c, "k\(i)", token: player.token).id == player.id)
            c.close()
        }
        // A newcomer's id is new: the ids' reservations were kept too.
        let newcomer = try LineClient(port: server.port, name: "new")
        #expect(try PlayerIdentityTests.hello2(newcomer, "fresh").id > players.map(\.id).max()!)
        try server.kill()
    }

    /// When the players file cannot be synced, the server stops without
    /// sending the HELLO reply: a token is never handed out that may not be
    /// on disk.
    @Test func aFailedTokenSyncSendsNoToken() throws {
        let device = FaultyStorageDevice()
        let server = try TestServer(storageDevice: device)
        defer { server.stop() }
        let c = try LineClient(port: server.port)
        #expect(try c.request("PING").reply == "PONG")
        device.failSyncs(.ioError, matching: "/players")
        try c.send("HELLO 2 lost")
        let lines = try c.waitForClose(timeout: 30)
        #expect(!lines.contains { $0.hasPrefix("OK hello") }, "\(lines)")
        let failure = server.waitForStop(timeout: 30)
        #expect("\(failure.map { "\($0)" } ?? "")".contains("players file sync failed"), "\(String(describing: failure))")
    }
}
