import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import Testing

/// Nothing grows without bound (issue 20): a room forgets players absent for
/// longer than `forget_absent_seconds` (their moves stay in its totals, also
/// across a restart), and a room that players created is closed, files and
/// all, once empty for `idle_room_seconds`; configured rooms never are.
@Suite struct RoomUpkeepTests {
    static let den = RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)

    @Test func anAbsentPlayerIsForgottenAndItsMovesStayInTheRoomAcrossARestart() throws {
        let data = TestServer.temporaryDirectory()
        var server: TestServer? = try TestServer(rooms: [Self.den], dataDirectory: data) { $0.forgetAbsentSeconds = 1 }
        let port = try #require(server?.port)
        let alice = try LineClient(port: port, name: "alice")
        let (aliceID, _) = try PlayerIdentityTests.hello2(alice, "alice")
        let snap = try PlayerIdentityTests.join(alice, "den")
        var acked: DurabilityTests.Acknowledged = [:]
        try DurabilityTests.move(0, to: DurabilityTests.home(of: 0, in: snap.state), alice, &acked)
        let bob = try LineClient(port: port, name: "bob")
        let (bobID, _) = try PlayerIdentityTests.hello2(bob, "bob")
        _ = try PlayerIdentityTests.join(bob, "den")
        #expect(try alice.request("LEAVE").reply == "OK left den")

        // bob is told, in order, like any durable event.
        _ = try bob.waitForEvent { $0.hasSuffix(" forgotten \(aliceID)") }
        var state = try SnapshotCodec.decode(try bob.request("SYNC").state.map { Substring($0) }, now: 0).state
        #expect(state.absent[PlayerID(aliceID)] == nil)
        #expect(state.roomMoves == 1 && state.roomTotalMoves == 1 && state.formerMoves == 1)
        // bob, who is here, is not forgotten however long he stays.
        #expect(state.players[PlayerID(bobID)] != nil)

        bob.close()
        alice.close()
        server?.stop()
        server = nil
        server = try TestServer(rooms: [Self.den], dataDirectory: data)
        let carol = try LineClient(port: try #require(server?.port), name: "carol")
        _ = try PlayerIdentityTests.hello2(carol, "carol")
        state = try PlayerIdentityTests.join(carol, "den").state
        #expect(state.absent[PlayerID(aliceID)] == nil && state.playerRecord(PlayerID(aliceID)) == nil)
        #expect(state.roomMoves == 1 && state.roomTotalMoves == 1)
        server?.stop()
    }

    @Test func aCreatedRoomLeftEmptyIsClosedWithItsFilesAndAConfiguredOneIsNot() throws {
        let data = TestServer.temporaryDirectory()
        let server = try TestServer(dataDirectory: data) { $0.idleRoomSeconds = 1 }
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        _ = try alice.hello("alice")
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try bob.hello("bob")
        #expect(try alice.request("CREATE den jigsaw 2x2").reply == "OK created den")
        #expect(try bob.request("CREATE busy jigsaw 2x2").reply == "OK created busy")
        #expect(try bob.request("JOIN busy").reply.hasPrefix("OK joined busy"))
        #expect(try alice.request("JOIN den").reply.hasPrefix("OK joined den"))
        #expect(FileManager.default.fileExists(atPath: data + "/rooms/den/snapshot"))
        #expect(try alice.request("LEAVE").reply == "OK left den")

        // Polled, with a deadline: the server tells nobody that a room closed.
        let deadline = Date().addingTimeInterval(15)
        var names: [String] = []
        repeat {
            names = try alice.request("ROOMS").state.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
            if !names.contains("den") { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        #expect(!names.contains("den"))
        // The room with a player stays; so does the configured room nobody is in.
        #expect(names.contains("busy") && names.contains("lobby"))
        #expect(!FileManager.default.fileExists(atPath: data + "/rooms/den"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: data + "/removed")) == [])
        // The name is free again.
        #expect(try alice.request("CREATE den jigsaw 2x2").reply == "OK created den")
    }
}
