import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleProtocol
@testable import PuzzleServer

/// No single client or address can take the whole server: a per-address
/// connection cap, paced chat, and paced password guessing.
@Suite struct ServerFloodControlTests {
    @Test func oneAddressCannotTakeEveryConnectionSlot() throws {
        let log = LogLines()
        let server = try TestServer(log: log) {
            $0.maxConnections = 100
            $0.maxConnectionsPerAddress = 2
            $0.logLevel = .info
        }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        #expect(try a.request("PING").reply == "PONG" && b.request("PING").reply == "PONG")
        let c = try LineClient(port: server.port, name: "c")
        #expect(try c.waitForClose() == ["BYE FULL too many connections from 127.0.0.1 (limit 2)"])
        #expect(log.lines.contains { $0.contains("refused 127.0.0.1:") && $0.contains("2 connections from 127.0.0.1") }, "\(log.lines.suffix(3))")
        #expect(replyFields(try b.request("STATS").reply)["refused"] == "1")

        // A closed connection frees its address's slot.
        a.close()
        let deadline = Date().addingTimeInterval(20)
        while replyFields(try b.request("STATS").reply)["connections"] != "1" {
            try #require(Date() < deadline, "the server never saw the close")
        }
        let d = try LineClient(port: server.port, name: "d")
        #expect(try d.request("PING").reply == "PONG")
    }

    /// Rooms made from one address are paced (`creates_per_hour`): the
    /// allowance all at once, then RATE_LIMITED saying when to try again;
    /// a refused CREATE (a name taken) costs nothing, and the refused room is
    /// not made. 0 turns the pace off.
    @Test func createsArePacedPerAddress() throws {
        let server = try TestServer { $0.createsPerHour = 3 }
        defer { server.stop() }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        _ = try a.hello("maker")
        _ = try b.hello("other")
        #expect(try a.request("CREATE r0 swap 3x3").reply == "OK created r0")
        #expect(try a.request("CREATE r0 swap 3x3").reply.hasPrefix("ERR ROOM_EXISTS"))
        #expect(try a.request("CREATE r1 swap 3x3").reply == "OK created r1")
        // Another connection from the same address shares the allowance.
        #expect(try b.request("CREATE r2 swap 3x3").reply == "OK created r2")
        let refused = try a.request("CREATE r3 swap 3x3").reply
        #expect(refused == "ERR RATE_LIMITED rooms created from 127.0.0.1 are paced at 3 an hour; try again in 1200 s", "\(refused)")
        #expect(try b.request("CREATE r3 swap 3x3").reply.hasPrefix("ERR RATE_LIMITED "))
        let (_, listed) = try a.request("ROOMS")
        #expect(!listed.contains { $0.contains(" r3 ") }, "\(listed)")
        #expect(listed.count == 4, "\(listed)")
        // The connection carries on.
        #expect(try a.request("PING").reply == "PONG")

        let unpaced = try TestServer { $0.createsPerHour = 0 }
        defer { unpaced.stop() }
        let c = try LineClient(port: unpaced.port)
        _ = try c.hello("free")
        for i in 0..<5 { #expect(try c.request("CREATE u\(i) swap 3x3").reply == "OK created u\(i)") }
    }

    /// A client pipelining SAY lines is paced IRC-style: its requests wait (it
    /// stops being read) until its chat budget allows the next line; nothing is
    /// refused or lost, and every member sees every line in order.
    @Test func chatFloodIsPacedNotDropped() throws {
        let server = try TestServer { $0.chatRateLimit = 10; $0.chatBurst = 3 }
        let flooder = try LineClient(port: server.port, name: "flooder"), ear = try LineClient(port: server.port, name: "ear")
        let flooderID = try flooder.enter(as: "flooder")
        try ear.enter(as: "ear")
        let lines = 13
        let start = Date()
        try flooder.sendRaw(Array(((0..<lines).map { "SAY line \($0)\n" }.joined() + "PING done\n").utf8))
        for _ in 0..<lines { #expect(try flooder.awaitReply().reply == "OK said") }
        #expect(try flooder.awaitReply().reply == "PONG done")
        let elapsed = Date().timeIntervalSince(start)
        // 3 lines of burst, then 10 more at 10 a second: at least a second.
        #expect(elapsed >= 0.99, "13 lines took only \(elapsed) s")
        for i in 0..<lines {
            let said = try ear.waitForEvent { $0.contains(" say ") }
            #expect(said.hasSuffix(" say \(flooderID) line \(i)"), "\(said)")
        }
    }

    /// Wrong room passwords from one address, over any number of connections,
    /// are checked no faster than the retry interval once the free attempts are
    /// used; the right password still gets in when its turn comes.
    @Test func wrongPasswordsFromOneAddressAreSlowedDown() throws {
        let room = RoomSpec(name: "vault", kind: .swap, rows: 2, cols: 2, picture: "quilt", rotation: false, password: "sesame")
        let server = try TestServer(rooms: [room]) { $0.passwordFreeAttempts = 2; $0.passwordRetryMillis = 200 }
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        _ = try a.hello("guesser")
        _ = try b.hello("helper")
        let start = Date()
        try a.sendRaw(Array((0..<4).map { "JOIN vault guess\($0)\n" }.joined().utf8))
        try b.sendRaw(Array((0..<3).map { "JOIN vault other\($0)\n" }.joined().utf8))
        for _ in 0..<4 { #expect(try a.awaitReply().reply.hasPrefix("ERR BAD_PASSWORD")) }
        for _ in 0..<3 { #expect(try b.awaitReply().reply.hasPrefix("ERR BAD_PASSWORD")) }
        let elapsed = Date().timeIntervalSince(start)
        // 7 guesses with 2 free: the 5 others need 5 fresh 200 ms allowances.
        #expect(elapsed >= 0.99, "7 wrong passwords took only \(elapsed) s")
        #expect(try a.request("JOIN vault sesame").reply.hasPrefix("OK joined vault"))
        #expect(try b.request("PING").reply == "PONG")
    }
}
