import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// Colour slots over real sockets (issue 16, spoiler 4): ids grow across the
/// server, but players present in one room never share a colour.
@Suite(.serialized) struct ServerColorSlotTests {
    @Test func playersOneAndNineInOneRoomGetDifferentSlotsAndALeaveFreesOne() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let (aliceID, _) = try PlayerIdentityTests.hello2(alice, "alice")
        #expect(aliceID == 1)
        #expect(try alice.request("JOIN lobby").reply.hasPrefix("OK joined lobby"))
        // Players 2 to 8 come and go elsewhere (they say HELLO and nothing more).
        var others: [LineClient] = []
        for n in 2...8 {
            let c = try LineClient(port: server.port, name: "p\(n)")
            #expect(try c.hello("p\(n)") == n)
            others.append(c)
        }
        let erin = try LineClient(port: server.port, name: "erin")
        let (erinID, _) = try PlayerIdentityTests.hello2(erin, "erin")
        #expect(erinID == 9)
        let joined = try erin.request("JOIN lobby")
        #expect(joined.reply.hasPrefix("OK joined lobby"))
        #expect(joined.state.contains("S color 1 0") && joined.state.contains("S color 9 1"), "\(joined.state.filter { $0.hasPrefix("S color") })")
        let snapshot = try SnapshotCodec.decode(joined.state.map { Substring($0) }, now: 0)
        #expect(snapshot.state.colorSlots == [PlayerID(1): 0, PlayerID(9): 1])

        // Alice leaves: her slot is free for the next arrival; erin keeps hers.
        #expect(try alice.request("LEAVE").reply == "OK left lobby")
        let frank = try LineClient(port: server.port, name: "frank")
        let (frankID, _) = try PlayerIdentityTests.hello2(frank, "frank")
        let after = try frank.request("JOIN lobby").state
        #expect(after.contains("S color \(frankID) 0") && after.contains("S color 9 1"), "\(after.filter { $0.hasPrefix("S color") })")
        // A version 1 snapshot is as it was: no colour lines.
        #expect(try others[0].request("JOIN lobby").state.allSatisfy { !$0.hasPrefix("S color") })
    }
}
