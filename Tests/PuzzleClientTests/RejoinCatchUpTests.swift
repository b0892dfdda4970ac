import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Back after a dropped link, the client asks only for what it missed
/// (issue 20): `REJOIN <room> <seq> <run>` with the point its mirror is at,
/// and takes the events that answer it without a snapshot.
@Suite struct RejoinCatchUpTests {
    /// A session in room "duo" (2x2 swap, alice and bob) at seq 2 of run `run`.
    func joined(run: String) throws -> (ClientSession, RoomState) {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), leaseMillis: 10_000, seed: 5))
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0)
        try st.perform(.join(name: "bob"), by: PlayerID(2), at: 0)
        var s = ClientSession(name: "alice", room: "duo")
        s.connected(now: 0)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=1 name=alice token=0123456789abcdef0123456789abcdef server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { s.receive(Substring(line), now: 0) }
        s.receive("OK joined duo id=1 seq=2 run=\(run)", now: 0)
        #expect(s.phase == .joined)
        _ = s.takeOutput()
        return (s, st)
    }

    @Test func aDroppedLinkRejoinsFromItsPointAndAppliesTheMissedEvents() throws {
        var (s, st) = try joined(run: "00000000000000ab")
        s.connectionLost("the connection was cut")
        s.connected(now: 10)
        #expect(s.takeOutgoing().map(\.line).last == "REJOIN duo 2 00000000000000ab")
        // What bob did meanwhile, as the server sends it before the reply.
        var later = st
        let events = try later.perform(.grab(piece: 1), by: PlayerID(2), at: 5)
            + later.perform(.release(piece: 1), by: PlayerID(2), at: 6)
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 10)
        for e in events { s.receive(Substring(EventCodec.line(e)), now: 10) }
        s.receive("OK joined duo id=1 seq=\(later.seq) run=00000000000000ab missed=\(events.count)", now: 10)
        #expect(s.phase == .joined && s.fatalError == nil)
        #expect(s.state?.seq == later.seq && s.state?.digest == later.digest)
        #expect(s.takeOutgoing().isEmpty, "caught up: no SYNC")
        st = later
        // The server did not have the point (another run: it restarted): a snapshot, as for JOIN.
        s.connectionLost("the connection was cut")
        s.connected(now: 20)
        #expect(s.takeOutgoing().map(\.line).last == "REJOIN duo \(st.seq) 00000000000000ab")
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 20)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 20) { s.receive(Substring(line), now: 20) }
        s.receive("OK joined duo id=1 seq=\(st.seq) run=00000000000000cd", now: 20)
        #expect(s.phase == .joined && s.state == st)
        s.connectionLost("the connection was cut")
        s.connected(now: 30)
        #expect(s.takeOutgoing().map(\.line).last == "REJOIN duo \(st.seq) 00000000000000cd")
    }

    @Test func aCatchUpTakesTheServersClock() throws {
        var (s, _) = try joined(run: "00000000000000ab")
        s.connectionLost("the connection was cut")
        s.connected(now: 600_000)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 600_000)
        // alice's stay ended long ago (left), and she is back (joined): applied
        // now, the two would have counted the ten minutes away as play.
        s.receive("EV 3 left 1", now: 600_000)
        s.receive("EV 4 joined 1 alice", now: 600_000)
        s.receive("S clock 31000 running", now: 600_000)
        s.receive("OK joined duo id=1 seq=4 run=00000000000000ab missed=2", now: 600_000)
        #expect(s.state?.elapsed(at: 601_000) == 32_000)
    }

    @Test func aMissedEventThatDoesNotApplyEndsInASync() throws {
        var (s, _) = try joined(run: "00000000000000ab")
        s.connectionLost("the connection was cut")
        s.connected(now: 10)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 10)
        s.receive("EV 4 grabbed 1 2", now: 10)  // seq 3 never came
        s.receive("OK joined duo id=1 seq=4 run=00000000000000ab missed=2", now: 10)
        #expect(s.phase == .joined)
        #expect(s.takeOutgoing().map(\.line) == ["SYNC"])
    }

    @Test func aFirstJoinIsAPlainJoin() throws {
        var s = ClientSession(name: "alice", room: "duo")
        s.connected(now: 0)
        #expect(s.takeOutgoing().map(\.line).last == "JOIN duo")
    }
}
