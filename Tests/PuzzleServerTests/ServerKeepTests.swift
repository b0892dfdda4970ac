import PuzzleLink
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// KEEP over real sockets (issue 16, spoiler 6): a holder who is there keeps
/// its piece past the lease without moving it, and nobody else hears of it.
@Suite(.serialized) struct ServerKeepTests {
    /// lobby: the config's lease (`leaseMillis`); timer: a room whose short
    /// lease is the test's clock (an `expired` there says time has passed).
    static func server(leaseMillis: Int, timerLease: Int) throws -> TestServer {
        try TestServer(rooms: [
            RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil),
            RoomSpec(name: "timer", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil,
                     leaseMillis: timerLease),
        ]) { c in
            c.leaseMillis = leaseMillis
        }
    }

    /// Alice's KEEP during her lease outlasts bob's hold taken
    /// after her grab: without the KEEP hers would lapse first (at the same
    /// moment, piece 4 would go first), with it bob's goes first and hers later.
    @Test func keepHalfWayThroughTheLeaseOutlastsALaterGrab() throws {
        // 8 s leases: the order holds unless the machine stalls 7.5 s between
        // the grabs and the KEEP (a 2 s lease left a loaded machine 1.5 s).
        let server = try Self.server(leaseMillis: 8_000, timerLease: 500)
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let (aliceID, _) = try PlayerIdentityTests.hello2(alice, "alice")
        #expect(try alice.request("JOIN lobby").reply.hasPrefix("OK joined lobby"))
        let bob = try LineClient(port: server.port, name: "bob")
        let bobID = try bob.enter(as: "bob")
        let clock = try LineClient(port: server.port, name: "clock")
        let clockID = try clock.enter("timer", as: "clock")

        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")
        #expect(try bob.request("GRAB 5").reply == "OK grabbed 5")
        // 500 ms after bob's grab: a quarter of the way through both leases (the
        // rest is slack for a loaded machine).
        #expect(try clock.request("GRAB 0").reply == "OK grabbed 0")
        try clock.waitForEvent { $0.hasSuffix(" expired 0 \(clockID)") }
        #expect(try alice.request("KEEP").reply == "OK kept 4 8000")

        // Others see no line for a KEEP.
        let seen = bob.events.count
        #expect(try bob.request("PING").reply == "PONG")
        #expect(bob.events.count == seen, "\(bob.events.suffix(3))")

        // Bob's hold lapses first; alice's later.
        let first = try alice.waitForEvent(timeout: 20) { $0.contains(" expired ") }
        #expect(first.hasSuffix(" expired 5 \(bobID)"), "\(first)")
        let second = try alice.waitForEvent(timeout: 20) { $0.contains(" expired ") }
        #expect(second.hasSuffix(" expired 4 \(aliceID)"), "\(second)")
        // Once lapsed, a KEEP says so.
        #expect(try alice.request("KEEP 4").reply.hasPrefix("ERR NOT_HOLDER "))
    }

    @Test func keepFollowsReleasesPieceRules() throws {
        let server = try Self.server(leaseMillis: 60_000, timerLease: 400)
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        try alice.enter(as: "alice")
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")
        #expect(try alice.request("KEEP").reply == "ERR BAD_ARGS you hold no piece; GRAB one first")
        #expect(try alice.request("GRAB 4").reply == "OK grabbed 4")
        #expect(try alice.request("KEEP 4").reply == "OK kept 4 60000")
        #expect(try alice.request("KEEP 99").reply.hasPrefix("ERR UNKNOWN_PIECE "))
        #expect(try alice.request("KEEP 4 5").reply.hasPrefix("ERR BAD_ARGS usage: KEEP [piece]"))
        #expect(try bob.request("KEEP 4").reply == "ERR NOT_HOLDER you do not hold piece 4")
        #expect(try bob.request("KEEP").reply.hasPrefix("ERR BAD_ARGS "))
        #expect(try alice.request("RELEASE").reply == "OK released 4")
        #expect(try alice.request("KEEP 4").reply.hasPrefix("ERR NOT_HOLDER "))
    }

    /// KEEP is paced with the drags: a flood is refused, not served.
    @Test func keepFloodIsRateLimited() throws {
        let server = try TestServer { $0.dragRateLimit = 20 }
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        try c.enter(as: "keeper")
        #expect(try c.request("GRAB 0").reply == "OK grabbed 0")
        try c.sendRaw(Array(String(repeating: "KEEP\n", count: 100).utf8))
        var ok = 0, limited = 0
        for _ in 0..<100 {
            let r = try c.awaitReply().reply
            if r.hasPrefix("OK kept 0 ") { ok += 1 } else if r.hasPrefix("ERR RATE_LIMITED") { limited += 1 }
        }
        #expect(ok + limited == 100 && limited >= 50 && ok >= 20)
    }
}
