import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// A version 2 JOIN while in a room is a switch that checks before it leaves
/// (issue 16, spoiler 10a): a refused switch changes nothing in the old room.
@Suite(.serialized) struct ServerRoomSwitchTests {
    static func server() throws -> TestServer {
        try TestServer(rooms: [
            RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3),
            RoomSpec(name: "den", kind: .swap, rows: 2, cols: 2, password: "secret"),
            RoomSpec(name: "open", kind: .jigsaw, rows: 2, cols: 2),
        ])
    }

    /// Alice (version 2) and bob (version 1) in the lobby; alice's id.
    static func aliceAndBob(_ server: TestServer) throws -> (alice: LineClient, id: Int, bob: LineClient) {
        let alice = try LineClient(port: server.port, name: "alice")
        let (id, _) = try PlayerIdentityTests.hello2(alice, "alice")
        #expect(try alice.request("JOIN lobby").reply.hasPrefix("OK joined lobby id=\(id) "))
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")
        return (alice, id, bob)
    }

    /// Whatever bob has been sent so far, up to a PING's answer.
    static func newEvents(_ bob: LineClient) throws -> [String] {
        let seen = bob.events.count
        #expect(try bob.request("PING").reply == "PONG")
        return Array(bob.events[seen...])
    }

    @Test func aRefusedSwitchChangesNothingInTheOldRoom() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (alice, id, bob) = try Self.aliceAndBob(server)
        // Someone named alice is in the open room already.
        let other = try LineClient(port: server.port, name: "other")
        _ = try PlayerIdentityTests.hello2(other, "alice")
        #expect(try other.request("JOIN open").reply.hasPrefix("OK joined open"))
        _ = try Self.newEvents(bob)

        #expect(try alice.request("JOIN den wrong").reply == "ERR BAD_PASSWORD wrong room password")
        #expect(try alice.request("JOIN den").reply.hasPrefix("ERR BAD_PASSWORD room 'den' needs a password"))
        #expect(try alice.request("JOIN attic").reply.hasPrefix("ERR UNKNOWN_ROOM "))
        #expect(try alice.request("JOIN open").reply.hasPrefix("ERR NAME_TAKEN "))
        #expect(try alice.request("JOIN lobby").reply == "ERR ALREADY_JOINED you are in room 'lobby' already")
        #expect(try Self.newEvents(bob) == [], "the lobby saw a refused switch")

        // Still in the lobby, and playing.
        #expect(try alice.request("GRAB 0").reply == "OK grabbed 0")
        try bob.waitForEvent { $0.hasSuffix(" grabbed 0 \(id)") }
        let who = try alice.request("WHO")
        #expect(who.reply == "OK who 2")
        #expect(who.state.contains { $0.hasPrefix("S who \(id) alice ") })
    }

    @Test func aGoodSwitchLeavesTheOldRoomAndJoinsTheNew() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (alice, id, bob) = try Self.aliceAndBob(server)
        let dan = try LineClient(port: server.port, name: "dan")
        try dan.enter("den", as: "dan", password: "secret")
        #expect(try alice.request("GRAB 3").reply == "OK grabbed 3")
        try bob.waitForEvent { $0.hasSuffix(" grabbed 3 \(id)") }

        let (reply, snapshot) = try alice.request("JOIN den secret")
        #expect(reply.hasPrefix("OK joined den id=\(id) "))
        #expect(snapshot.first?.hasPrefix("S room den kind=swap ") == true)
        // The old room: the hold goes back, then the leave. The new: the join.
        try bob.waitForEvent { $0.hasSuffix(" returned 3 \(id) left") }
        try bob.waitForEvent { $0.hasSuffix(" left \(id)") }
        try dan.waitForEvent { $0.hasSuffix(" joined \(id) alice") }
        // Alice hears nothing more from the lobby, and plays in the den.
        #expect(try alice.request("GRAB 1").reply == "OK grabbed 1")
        #expect(!alice.events.contains { $0.contains(" left \(id)") || $0.contains(" returned 3 ") }, "\(alice.events)")
        #expect(try alice.request("WHO").state.count == 2)
    }

    @Test func versionOneStillLeavesFirst() throws {
        let server = try Self.server()
        defer { server.stop() }
        let (_, _, bob) = try Self.aliceAndBob(server)
        #expect(try bob.request("JOIN open").reply == "ERR ALREADY_JOINED leave your current room first")
        #expect(try bob.request("LEAVE").reply == "OK left lobby")
        #expect(try bob.request("JOIN open").reply.hasPrefix("OK joined open "))
    }
}
