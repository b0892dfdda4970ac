import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import Testing
@testable import PuzzleServer

/// Rejoins that cost what was missed (issue 20): a client that comes back
/// with the point it has (`REJOIN <room> <seq> <run>`, `SYNC <seq> <run>`)
/// gets the events after it when the room still has them, else a snapshot.
@Suite struct RejoinTests {
    static let den = RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)

    /// Every line up to and including the next reply.
    static func linesThroughReply(_ c: LineClient) throws -> (lines: [String], reply: String) {
        var lines: [String] = []
        while true {
            let l = try c.nextLine()
            switch ServerLine.classify(Substring(l)) {
            case .event, .state: lines.append(l)
            default: return (lines, l)
            }
        }
    }

    static func field(_ key: String, _ reply: String) -> String? {
        reply.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func aRejoinGetsOnlyTheEventsItMissed() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let (_, token) = try PlayerIdentityTests.hello2(alice, "alice")
        let (joinReply, joinLines) = try alice.request("JOIN den")
        let seq = try #require(Self.field("seq", joinReply)), run = try #require(Self.field("run", joinReply))
        var mirror = try SnapshotCodec.decode(joinLines.map { Substring($0) }, now: 0).state
        alice.close()

        let bob = try LineClient(port: server.port, name: "bob")
        _ = try PlayerIdentityTests.hello2(bob, "bob")
        let snap = try PlayerIdentityTests.join(bob, "den")
        var acked: DurabilityTests.Acknowledged = [:]
        try DurabilityTests.move(1, to: DurabilityTests.home(of: 1, in: snap.state), bob, &acked)
        try DurabilityTests.move(2, to: DurabilityTests.home(of: 2, in: snap.state), bob, &acked)

        let back = try LineClient(port: server.port, name: "alice-back")
        _ = try PlayerIdentityTests.hello2(back, "alice", token: token)
        try back.send("REJOIN den \(seq) \(run)")
        let (lines, reply) = try Self.linesThroughReply(back)
        #expect(reply.hasPrefix("OK joined den ") && Self.field("run", reply) == run)
        #expect(!lines.contains { $0.hasPrefix("S ") && !$0.hasPrefix("S clock ") }, "no snapshot: \(lines.prefix(3))")
        // bob's join, two grabs and two drops: what happened since alice's point; then the clock.
        #expect(lines.count == 6 && lines.last?.hasPrefix("S clock ") == true && Self.field("missed", reply) == "5", "\(lines) \(reply)")
        for line in lines where line.hasPrefix("EV ") {
            guard case .room(let e)? = EventCodec.decode(Substring(line)) else { Issue.record("not an event: \(line)"); continue }
            try mirror.apply(e)
        }
        let digest = try back.request("DIGEST").reply
        #expect(Self.field("value", digest) == mirror.digest.description && Self.field("seq", digest) == String(mirror.seq))
        // Who watches comes with a catch-up too (their comings and goings are not in the ring).
        let eve = try LineClient(port: server.port, name: "eve")
        let eveID = try PlayerIdentityTests.hello2(eve, "eve").id
        #expect(try eve.request("WATCH den").reply.hasPrefix("OK watching den "))
        _ = try back.waitForEvent { $0.hasSuffix(" watching \(eveID) eve") }
        // Nothing missed: nothing sent but the reply and who watches.
        try back.send("SYNC \(mirror.seq) \(run)")
        let (none, synced) = try Self.linesThroughReply(back)
        #expect(none.first == "S watcher \(eveID) eve" && none.count == 2 && synced.hasPrefix("OK sync ") && Self.field("missed", synced) == "0",
                "\(none) \(synced)")
        // And the clock, which events do not carry: running, since alice and bob are in.
        let clock = none.last?.split(separator: " ") ?? []
        #expect(clock.count == 4 && clock[1] == "clock" && Int(clock[2]) != nil && clock[3] == "running", "\(none)")
    }

    @Test func aPointTheRoomCannotVouchForGetsASnapshot() throws {
        let data = TestServer.temporaryDirectory()
        var server: TestServer? = try TestServer(rooms: [Self.den], dataDirectory: data)
        let alice = try LineClient(port: try #require(server?.port), name: "alice")
        let (_, token) = try PlayerIdentityTests.hello2(alice, "alice")
        let (joinReply, _) = try alice.request("JOIN den")
        let seq = try #require(Self.field("seq", joinReply).flatMap { UInt64($0) }), run = try #require(Self.field("run", joinReply))
        for (point, why) in [("\(seq + 5) \(run)", "from the future"), ("\(seq) 0123456789abcdef", "another run")] {
            try alice.send("SYNC \(point)")
            let (lines, reply) = try Self.linesThroughReply(alice)
            #expect(lines.contains { $0.hasPrefix("S room den ") } && Self.field("missed", reply) == nil, "\(why): \(reply)")
        }
        #expect(try alice.request("SYNC 1 abc").reply.hasPrefix("ERR BAD_ARGS "))
        alice.close()
        // A restart: the room's history since its last durable record is gone, so is its run.
        server?.stop()
        server = nil
        server = try TestServer(rooms: [Self.den], dataDirectory: data)
        let back = try LineClient(port: try #require(server?.port), name: "alice-back")
        _ = try PlayerIdentityTests.hello2(back, "alice", token: token)
        try back.send("REJOIN den \(seq) \(run)")
        let (lines, reply) = try Self.linesThroughReply(back)
        #expect(reply.hasPrefix("OK joined den ") && Self.field("missed", reply) == nil)
        #expect(lines.contains { $0.hasPrefix("S room den ") } && Self.field("run", reply) != run)
        server?.stop()
    }

    @Test func versionOneCannotRejoin() throws {
        let server = try TestServer(rooms: [Self.den])
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "v1")
        _ = try c.hello("v1")
        #expect(try c.request("REJOIN den 0 0123456789abcdef").reply.hasPrefix("ERR BAD_VERSION "))
        #expect(try c.request("JOIN den").reply == "OK joined den id=1 seq=1")
    }

    // The ring alone.

    static func line(_ seq: UInt64) -> [UInt8] { Array("EV \(seq) grabbed 0 1\n".utf8) }

    @Test func theRingHandsOutEveryEventAfterAPointItHoldsAndNoMore() {
        var ring = RecentEvents(run: 0xab, seq: 10)
        #expect(ring.run == "00000000000000ab")
        for s in UInt64(11)...20 { ring.append(seq: s, isNext: false, line: Self.line(s)) }
        #expect(ring.lines(after: 17, run: ring.run, current: 20).map { Array($0) } == Self.line(18) + Self.line(19) + Self.line(20))
        #expect(ring.lines(after: 10, run: ring.run, current: 20)?.count == (11...20).reduce(0) { $0 + Self.line($1).count })
        #expect(ring.lines(after: 20, run: ring.run, current: 20)?.isEmpty == true)
        #expect(ring.lines(after: 9, run: ring.run, current: 20) == nil, "before this run")
        #expect(ring.lines(after: 21, run: ring.run, current: 20) == nil, "from the future")
        #expect(ring.lines(after: 15, run: "00000000000000ac", current: 20) == nil, "another run")
    }

    @Test func theRingForgetsItsOldestPastItsBoundsAndAcrossAGapOrAPuzzle() {
        var ring = RecentEvents(run: 1, seq: 0)
        let total = UInt64(RecentEvents.maxEvents + 100)
        for s in UInt64(1)...total { ring.append(seq: s, isNext: false, line: Self.line(s)) }
        #expect(ring.lines(after: 50, run: ring.run, current: total) == nil)
        #expect(ring.lines(after: total - UInt64(RecentEvents.maxEvents), run: ring.run, current: total) != nil)
        // A gap: nothing before it is vouched for.
        ring.append(seq: total + 5, isNext: false, line: Self.line(total + 5))
        #expect(ring.lines(after: total, run: ring.run, current: total + 5) == nil)
        #expect(ring.lines(after: total + 4, run: ring.run, current: total + 5) != nil)
        // Another puzzle's picture comes with a snapshot.
        ring.append(seq: total + 6, isNext: true, line: Self.line(total + 6))
        #expect(ring.lines(after: total + 4, run: ring.run, current: total + 6) == nil)
        #expect(ring.lines(after: total + 6, run: ring.run, current: total + 6)?.isEmpty == true)
        // Bytes bound too.
        var big = RecentEvents(run: 1, seq: 0)
        let long = [UInt8](repeating: 0x41, count: 1000) + [0x0A]
        for s in UInt64(1)...1000 { big.append(seq: s, isNext: false, line: long) }
        #expect(big.lines(after: 1000 - 200, run: big.run, current: 1000) != nil)
        #expect(big.lines(after: 1000 - 300, run: big.run, current: 1000) == nil)
    }
}

/// A randomized check of catching up: two players play at random while a
/// third keeps dropping its link and coming back with `REJOIN` from the point
/// its copy is at; after every return its copy must be the server's (digest).
@Suite struct RejoinRandomPlayTests {
    static func line(_ action: Action) -> String? {
        switch action {
        case .grab(let p): "GRAB \(p)"
        case .drag(let p, let to): "DRAG \(p) \(to.x) \(to.y)"
        case .rotate(let p): "ROTATE \(p)"
        case .drop(let p): "DROP \(p)"
        case .release(let p): "RELEASE \(p)"
        case .keep(let p): "KEEP \(p)"
        case .hint: "HINT"
        case .next: "NEXT"
        case .join, .leave: nil
        }
    }

    @Test func aCopyThatKeepsRejoiningStaysTheServersRoom() throws {
        let room = RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: true, password: nil)
        let server = try TestServer(rooms: [room], seed: 11)
        defer { server.stop() }
        var players: [(client: LineClient, id: PlayerID)] = []
        for name in ["ann", "ben"] {
            let c = try LineClient(port: server.port, name: name)
            let id = try PlayerIdentityTests.hello2(c, name).id
            _ = try PlayerIdentityTests.join(c, "den")
            players.append((c, PlayerID(id)))
        }
        var observer = try LineClient(port: server.port, name: "eve")
        let (_, token) = try PlayerIdentityTests.hello2(observer, "eve")
        var (reply, lines) = try observer.request("JOIN den")
        var mirror = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
        var run = try #require(RejoinTests.field("run", reply))
        var rng = SeededGenerator(seed: 2026)
        var caughtUp = 0, snapshots = 0
        for round in 0..<40 {
            observer.close()
            for _ in 0..<(1 + rng.next() % 6) {
                let (client, id) = players[Int(rng.next() % 2)]
                guard let request = Self.line(RandomActions.next(for: id, in: mirror, using: &rng)) else { continue }
                _ = try client.request(request)
            }
            observer = try LineClient(port: server.port, name: "eve-\(round)")
            _ = try PlayerIdentityTests.hello2(observer, "eve", token: token)
            try observer.send("REJOIN den \(mirror.seq) \(run)")
            (lines, reply) = try RejoinTests.linesThroughReply(observer)
            #expect(reply.hasPrefix("OK joined den "), "\(reply)")
            if RejoinTests.field("missed", reply) != nil {
                caughtUp += 1
                for l in lines {
                    guard case .room(let e)? = EventCodec.decode(Substring(l)) else { continue }
                    if e.body.isSequenced { try mirror.apply(e) } else { try? mirror.apply(e) }
                }
            } else {
                snapshots += 1
                mirror = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
            }
            run = try #require(RejoinTests.field("run", reply))
            let digest = try observer.request("DIGEST").reply
            #expect(RejoinTests.field("value", digest) == mirror.digest.description && RejoinTests.field("seq", digest) == String(mirror.seq),
                    "round \(round): \(digest) vs seq \(mirror.seq)")
        }
        // Both ways must have happened, or the test checks less than it says.
        #expect(caughtUp > 20, "caught up \(caughtUp), snapshots \(snapshots)")
    }
}

/// The server-wide cap on the rooms' catch-up events (`rejoin_memory_mb`,
/// issue 31: 1,000 rooms' rings had none).
@Suite struct RejoinMemoryCapTests {
    @Test func aForgottenRingSendsASnapshotToAnOldPointAndCatchesUpFromNow() {
        var ring = RecentEvents(run: 7, seq: 10)
        for seq in UInt64(11)...20 { ring.append(seq: seq, isNext: false, line: Array("EV \(seq) grabbed 1 2\n".utf8)) }
        let run = ring.run
        #expect(ring.lines(after: 12, run: run, current: 20) != nil && ring.memoryBytes > 0)
        ring.forget()
        #expect(ring.memoryBytes == 0)
        #expect(ring.lines(after: 12, run: run, current: 20) == nil, "an older point gets the snapshot")
        #expect(ring.lines(after: 20, run: run, current: 20).map(Array.init) == [], "nothing missed at the current point")
        ring.append(seq: 21, isNext: false, line: Array("EV 21 dropped 1 2\n".utf8))
        #expect(ring.lines(after: 20, run: run, current: 21).map { String(decoding: $0, as: UTF8.self) } == "EV 21 dropped 1 2\n")
    }

    /// `rejoin_memory_mb` is read in MiB (0: no cap); out of range is refused.
    @Test func theCapIsReadInMebibytes() throws {
        #expect(try ServerConfig.parse(text: "rejoin_memory_mb = 3\n", baseDirectory: "/").rejoinMemoryBytes == 3 << 20)
        #expect(try ServerConfig.parse(text: "rejoin_memory_mb = 0\n", baseDirectory: "/").rejoinMemoryBytes == 0)
        #expect(ServerConfig().rejoinMemoryBytes == 64 << 20)
        for bad in ["-1", "65537", "lots"] {
            #expect(throws: ConfigError.self, "\(bad)") { try ServerConfig.parse(text: "rejoin_memory_mb = \(bad)\n", baseDirectory: "/") }
        }
    }

    /// Over the cap, the rooms' rings are let go (STATS `rejoin_bytes` falls
    /// to what the cap allows at the next once-a-second sweep), and a player
    /// coming back from before gets the snapshot instead of the events.
    @Test func overTheCapAReturnerGetsTheSnapshot() throws {
        let log = LogLines()
        let server = try TestServer(rooms: [RejoinTests.den], log: log) { $0.rejoinMemoryBytes = 1; $0.logLevel = .info }
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let (_, token) = try PlayerIdentityTests.hello2(alice, "alice")
        let (joinReply, _) = try alice.request("JOIN den")
        let seq = try #require(RejoinTests.field("seq", joinReply)), run = try #require(RejoinTests.field("run", joinReply))
        alice.close()
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try PlayerIdentityTests.hello2(bob, "bob")
        let snap = try PlayerIdentityTests.join(bob, "den")
        var acked: DurabilityTests.Acknowledged = [:]
        try DurabilityTests.move(1, to: DurabilityTests.home(of: 1, in: snap.state), bob, &acked)
        // The once-a-second sweep lets the rings go and says so.
        #expect(log.waitFor { $0.contains("rejoin rings over") } != nil)
        let stats = try bob.request("STATS").reply
        #expect(RejoinTests.field("rejoin_bytes", stats) == "0", "\(stats)")
        let back = try LineClient(port: server.port, name: "alice-back")
        _ = try PlayerIdentityTests.hello2(back, "alice", token: token)
        try back.send("REJOIN den \(seq) \(run)")
        let (lines, reply) = try RejoinTests.linesThroughReply(back)
        #expect(reply.hasPrefix("OK joined den ") && RejoinTests.field("missed", reply) == nil, "\(reply)")
        #expect(lines.contains { $0.hasPrefix("S room ") }, "the snapshot: \(lines.prefix(3))")
    }
}
