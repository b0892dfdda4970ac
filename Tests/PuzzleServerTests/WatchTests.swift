import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import Testing

/// People who watch (issue 20): `WATCH <room>` sees the room live and may
/// chat, but is no player (not counted, cannot grab); players are told who
/// comes to watch and goes; a room with all its seats taken offers watching.
@Suite struct WatchTests {
    static let den = RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)

    static func id(_ c: LineClient, _ name: String) throws -> Int { try PlayerIdentityTests.hello2(c, name).id }

    @Test func aWatcherSeesTheRoomLiveChatsAndCannotPlay() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let aliceID = try Self.id(alice, "alice")
        _ = try PlayerIdentityTests.join(alice, "den")
        let dave = try LineClient(port: server.port, name: "dave")
        let daveID = try Self.id(dave, "dave")
        let (reply, lines) = try dave.request("WATCH den")
        #expect(reply.hasPrefix("OK watching den seq=") && reply.contains(" run="), "\(reply)")
        #expect(lines.contains("S watcher \(daveID) dave") && lines.contains { $0.hasPrefix("S player \(aliceID) ") })
        let snap = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snap.state.players[PlayerID(daveID)] == nil, "a watcher is no player")
        _ = try alice.waitForEvent { $0.hasSuffix(" watching \(daveID) dave") }

        // Live: alice's grab reaches dave; dave cannot grab, can chat.
        #expect(try alice.request("GRAB 0").reply == "OK grabbed 0")
        _ = try dave.waitForEvent { $0.hasSuffix(" grabbed 0 \(aliceID)") }
        #expect(try dave.request("GRAB 1").reply.hasPrefix("ERR WATCHING you are watching den"))
        #expect(try dave.request("HINT").reply.hasPrefix("ERR WATCHING "))
        #expect(try dave.request("SAY nice one").reply == "OK said")
        _ = try alice.waitForEvent { $0.hasSuffix(" say \(daveID) nice one") }

        // Counted apart.
        let den = listedRooms(try alice.request("ROOMS").state)["den"]
        #expect(den?.players == 1 && den?.watchers == 1, "\(String(describing: den))")
        let (who, whoLines) = try alice.request("WHO")
        #expect(who == "OK who 2" && whoLines.last == "S who \(daveID) dave watching", "\(whoLines)")

        // Going is told; a dropped link is no stay for a watcher.
        #expect(try dave.request("LEAVE").reply == "OK left den")
        _ = try alice.waitForEvent { $0.hasSuffix(" unwatching \(daveID)") }
        #expect(try dave.request("WATCH den").reply.hasPrefix("OK watching den "))
        _ = try alice.waitForEvent { $0.hasSuffix(" watching \(daveID) dave") }
        dave.close()
        _ = try alice.waitForEvent { $0.hasSuffix(" unwatching \(daveID)") }
    }

    @Test func aFullRoomRefusesAJoinAndOffersWatchingUntilASeatIsFree() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        _ = try Self.id(alice, "alice")
        #expect(try alice.request("CREATE duo jigsaw 2x2 seats=1").reply == "OK created duo")
        _ = try PlayerIdentityTests.join(alice, "duo")
        let bob = try LineClient(port: server.port, name: "bob")
        let bobID = try Self.id(bob, "bob")
        #expect(try bob.request("JOIN duo").reply == "ERR ROOM_FULL room 'duo' has all its 1 players: WATCH duo to watch")
        #expect(try bob.request("WATCH duo").reply.hasPrefix("OK watching duo "))
        let duo = listedRooms(try bob.request("ROOMS").state)["duo"]
        #expect(duo?.seats == 1, "\(String(describing: duo))")
        // Still full: the watcher stays a watcher.
        #expect(try bob.request("JOIN duo").reply.hasPrefix("ERR ROOM_FULL "))
        #expect(try alice.request("LEAVE").reply == "OK left duo")
        // A seat is free: the watcher joins the room it watches, to play.
        #expect(try bob.request("JOIN duo").reply.hasPrefix("OK joined duo id=\(bobID) "))
        #expect(try bob.request("GRAB 0").reply == "OK grabbed 0")
    }

    @Test func aWatcherWhoJoinsIsNotSentItsOwnJoinAndAVersionOneWhoSeesNoWatchers() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let dave = try LineClient(port: server.port, name: "dave")
        let daveID = try Self.id(dave, "dave")
        #expect(try dave.request("WATCH den").reply.hasPrefix("OK watching den "))
        let old = try LineClient(port: server.port, name: "old")
        _ = try old.hello("old")
        #expect(try old.request("JOIN den").reply.hasPrefix("OK joined den "))
        let (who, lines) = try old.request("WHO")
        #expect(who == "OK who 1" && !lines.contains { $0.hasSuffix(" watching") }, "\(lines)")
        #expect(try dave.request("JOIN den").reply.hasPrefix("OK joined den id=\(daveID) "))
        // The next line dave gets is the answer to this PING, not his own `joined`.
        #expect(try dave.request("PING x").reply == "PONG x")
        #expect(!dave.events.contains { $0.hasSuffix(" joined \(daveID) dave") }, "\(dave.events)")
    }

    @Test func watchingFromAResumedLinkEndsTheAwayStayAndItsHolds() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a")
        let (aID, token) = try PlayerIdentityTests.hello2(a, "ann")
        _ = try PlayerIdentityTests.join(a, "den")
        #expect(try a.request("GRAB 3").reply == "OK grabbed 3")
        a.close()
        let back = try LineClient(port: server.port, name: "a-back")
        _ = try PlayerIdentityTests.hello2(back, "ann", token: token)
        #expect(try back.request("WATCH den").reply.hasPrefix("OK watching den "))
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try Self.id(bob, "bob")
        _ = try PlayerIdentityTests.join(bob, "den")
        #expect(try bob.request("GRAB 3").reply == "OK grabbed 3", "ann's hold went back when she chose to watch")
        let (_, lines) = try bob.request("WHO")
        #expect(lines.filter { $0.hasPrefix("S who \(aID) ") } == ["S who \(aID) ann watching"], "\(lines)")
    }

    @Test func versionOneCannotWatch() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "v1")
        _ = try c.hello("v1")
        #expect(try c.request("WATCH den").reply.hasPrefix("ERR BAD_VERSION "))
    }
}
