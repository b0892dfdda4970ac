import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// `EventFlood`: when a room is followed by snapshots, and when no longer
/// (issue 30: telnet sessions in a room of bots).
struct EventFloodTests {
    struct NoDragSent: Error {}

    /// Alice moves her piece 1 a unit right (an arrow key) and the server
    /// answers the drag; where she asked it to go.
    static func stepRightAnswered(_ s: inout ClientSession, now: Int64) throws -> Point {
        s.dragHeld(dx: 1, dy: 0, now: now)
        guard case .drag(1, let to)? = s.takeOutgoing().first else { throw NoDragSent() }
        s.receive(Substring("OK dragged 1 \(to.x) \(to.y) -"), now: now + 10)
        return to
    }

    @Test func aWindowOverTheLimitFloodsAndAQuietOneEndsIt() {
        // 100 a second: 50 in a half-second window.
        var flood = EventFlood(limit: 100, snapshotEvery: 1000)
        for i in 0..<50 {
            let floods = flood.counted(now: Int64(i))
            #expect(!floods)
        }
        let r1 = flood.counted(now: 60)
        #expect(r1)
        #expect(flood.isFlooded)
        let r2 = flood.counted(now: 70)
        #expect(!r2)
        // A busy window goes by: still flooded.
        let r3 = flood.advance(to: 500)
        #expect(!r3)
        for i in 0..<10 { _ = flood.counted(now: 600 + Int64(i)) }
        // A window of at most half the limit's events ends it.
        let r4 = flood.advance(to: 1001)
        #expect(r4)
        #expect(!flood.isFlooded)
    }

    @Test func aRoomThatStopsEndsTheFloodAfterAWholeWindowWithoutEvents() {
        var flood = EventFlood(limit: 10, snapshotEvery: 1000)
        for _ in 0..<6 { _ = flood.counted(now: 0) }
        #expect(flood.isFlooded)
        let r5 = flood.advance(to: 400)
        #expect(!r5)
        let r6 = flood.advance(to: 1000)
        #expect(r6)
    }

    @Test func withEventsOffTheSnapshotsSequenceNumbersTellThePace() {
        var flood = EventFlood(limit: 100, snapshotEvery: 1000)
        for _ in 0..<51 { _ = flood.counted(now: 0) }
        flood.eventsOff = true
        // No events come to count: the windows say nothing.
        let r7 = flood.advance(to: 5000)
        #expect(!r7)
        #expect(flood.isFlooded)
        let r8 = flood.snapshot(seq: 1000, now: 5000)
        #expect(!r8)
        #expect(flood.isBehind, "events off: the room moves on unseen")
        let busy = flood.snapshot(seq: 1100, now: 6000)  // 100 a second
        #expect(!busy)
        let calm = flood.snapshot(seq: 1140, now: 7000)  // 40 a second: at most half
        #expect(calm)
        #expect(!flood.isFlooded && !flood.eventsOff && !flood.isBehind)
    }

    @Test func aSnapshotIsDueEveryIntervalWhileTheTableIsBehind() {
        var flood = EventFlood(limit: 100, snapshotEvery: 1000)
        #expect(flood.nextSnapshot == nil)
        flood.isBehind = true
        let r9 = flood.snapshotDue(now: 0)
        #expect(r9)
        flood.asked(now: 10)
        #expect(flood.nextSnapshot == 1010)
        let early = flood.snapshotDue(now: 1009), due = flood.snapshotDue(now: 1010)
        #expect(!early && due)
    }

    /// The session: past the limit it skips events unread, asks the server to
    /// stop them and for the room; chat still shows; its own drag moves its
    /// piece from the reply; once the snapshots show a calm room, events again.
    @Test func aFloodedSessionFollowsItsRoomBySnapshots() throws {
        var room = try AliceAndBob.joined(RoomState(settings: RoomSettings(first: PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 1)))
        var ev: [RoomEvent] = []
        try room.perform(.grab(piece: 1), by: PlayerID(1), at: 0, into: &ev)
        var s = AliceAndBob.session(in: "den", of: room)
        s.eventFlood = EventFlood(limit: 10, snapshotEvery: 1000)
        let joinedSeq = room.seq
        // Bob grabs and lets go of piece 5, twelve events at once: the sixth floods.
        var lines: [String] = []
        for _ in 0..<6 {
            for action in [Action.grab(piece: 5), .release(piece: 5)] {
                ev.removeAll()
                try room.perform(action, by: PlayerID(2), at: 100, into: &ev)
                lines += ev.map { EventCodec.line($0) }
            }
        }
        lines.append(String(String(decoding: EventCodec.encodeSay(seq: room.seq, player: PlayerID(2), text: "busy"), as: UTF8.self).dropLast()))
        for line in lines { s.receive(Substring(line), now: 100) }
        let asked = s.takeOutgoing()
        #expect(asked == [.events(false), .sync])
        #expect(s.state?.seq == joinedSeq + 5, "five events followed, the rest skipped")
        #expect(s.skippedInFlood == 7)
        let out = s.takeOutput()
        #expect(out.contains { $0.text.contains("over 10 moves a second") })
        #expect(out.contains { $0.text.contains("busy") }, "chat still shows")

        // The room as it is: no "resynced" line for a flood's catch-up.
        s.receive("OK events off", now: 200)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "den", state: room, picture: nil), now: 0) { s.receive(Substring(line), now: 200) }
        s.receive(Substring("OK sync seq=\(room.seq) digest=\(room.digest)"), now: 200)
        #expect(s.state?.seq == room.seq)
        let said = s.takeOutput()
        #expect(!said.contains { $0.text.contains("resynced") })

        // Alice's own drag, with the events off: the reply moves her piece.
        let to = try Self.stepRightAnswered(&s, now: 300)
        #expect(s.state?.locks[1]?.point == to)

        // A second later the next snapshot: the room barely moved, so events again.
        s.catchUpWithFlood(now: 1000)
        let early = s.takeOutgoing()
        #expect(early.isEmpty, "not due yet")
        s.catchUpWithFlood(now: 1100)
        let due = s.takeOutgoing()
        #expect(due == [.sync])
        for line in SnapshotCodec.lines(RoomSnapshot(name: "den", state: room, picture: nil), now: 0) { s.receive(Substring(line), now: 1200) }
        s.receive(Substring("OK sync seq=\(room.seq) digest=\(room.digest)"), now: 1200)
        let again = s.takeOutgoing()
        #expect(again == [.events(true)])
        let calm = s.takeOutput()
        #expect(calm.contains { $0.text.contains("calmed down") })
        #expect(s.eventFlood?.isFlooded == false)
    }

    /// Solves are events too: skipped in a flood, told from the snapshots
    /// (which puzzle the room is on now); a move refused for what the table
    /// could not show yet brings the room at once.
    @Test func aFloodedSessionTellsTheSolvesItsSnapshotsShowAndCatchesUpOnARefusal() throws {
        let room = try AliceAndBob.joined(RoomState(settings: RoomSettings(first: PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 1)))
        var s = AliceAndBob.session(in: "den", of: room)
        s.eventFlood = EventFlood(limit: 10, snapshotEvery: 1000)
        // Bob solves the puzzle (enough events at once to flood) and starts the next.
        var next = room
        var ev: [RoomEvent] = []
        var lines: [String] = []
        let g = next.geometry
        for p in 0..<next.pieceCount {
            let home = Point(x: g.boardOrigin.x + (p % 2) * g.unit, y: g.boardOrigin.y + (p / 2) * g.unit)
            for action in [Action.grab(piece: p), .drag(piece: p, to: home), .drop(piece: p)] {
                ev.removeAll()
                try next.perform(action, by: PlayerID(2), at: 10, into: &ev)
                lines += ev.map { EventCodec.line($0) }
            }
        }
        #expect(next.isSolved)
        ev.removeAll()
        try next.perform(.next, by: PlayerID(2), at: 20, into: &ev)
        // Skipped from the sixth sequenced event on: the solve among them.
        for line in lines { s.receive(Substring(line), now: 100) }
        _ = s.takeOutgoing()
        _ = s.takeOutput()
        #expect(s.eventFlood?.isFlooded == true)
        // The snapshot shows puzzle 1: the solve is told.
        s.receive("OK events off", now: 150)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "den", state: next, picture: nil), now: 0) { s.receive(Substring(line), now: 200) }
        s.receive(Substring("OK sync seq=\(next.seq) digest=\(next.digest)"), now: 200)
        let told = s.takeOutput()
        #expect(told.contains { $0.text == "meanwhile puzzle 0 was solved: now puzzle 1" }, "\(told.map(\.text))")
        // A refused grab (another's piece, not shown yet): the room at once, not a second later.
        s.grabNextFree(now: 300)
        let grab = s.takeOutgoing()
        #expect(grab.count == 1)
        s.receive("ERR HELD piece 0 is held by bob (#2)", now: 310)
        let caughtUp = s.takeOutgoing()
        #expect(caughtUp == [.sync])
    }

    /// With its drags paced, the player's own drag event comes a pace after
    /// its reply: the reply moves the piece (else the next arrow key would
    /// start from where the piece was, and a step be lost).
    @Test func aPacedSessionsOwnDragMovesItsPieceFromTheReply() throws {
        var room = try AliceAndBob.joined(RoomState(settings: RoomSettings(first: PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 1)))
        var ev: [RoomEvent] = []
        try room.perform(.grab(piece: 1), by: PlayerID(1), at: 0, into: &ev)
        var s = AliceAndBob.session(in: "den", of: room)
        s.dragPace = 33
        let to = try Self.stepRightAnswered(&s, now: 10)
        #expect(s.state?.locks[1]?.point == to)
        s.dragHeld(dx: 1, dy: 0, now: 30)
        let next = s.takeOutgoing()
        #expect(next == [.drag(1, Point(x: to.x + 1, y: to.y))])
    }

    /// A snapshot a moment after another (one after a move of the player's
    /// own) says nothing of the pace: the flood goes on.
    @Test func snapshotsCloseTogetherDoNotEndTheFlood() {
        var flood = EventFlood(limit: 100, snapshotEvery: 1000)
        for _ in 0..<51 { _ = flood.counted(now: 0) }
        flood.eventsOff = true
        _ = flood.snapshot(seq: 1000, now: 1000)
        let soon = flood.snapshot(seq: 1001, now: 1005)
        #expect(!soon && flood.isFlooded)
        let later = flood.snapshot(seq: 1300, now: 2000)
        #expect(!later && flood.isFlooded, "300 in a second: still a flood")
    }
}
