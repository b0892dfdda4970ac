import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The pure session: replies matched in order, snapshot from S lines, events mirrored, gaps resynced.
@Suite struct ClientSessionTests {
    /// A session that has joined a 2x2 swap room whose snapshot says seq 2 (alice and bob joined).
    func joined() throws -> (ClientSession, RoomState) {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), leaseMillis: 10_000, seed: 5))
        var ev: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0, into: &ev)
        try st.perform(.join(name: "bob"), by: PlayerID(2), at: 0, into: &ev)
        var s = ClientSession(name: "alice", room: "duo")
        s.connected(now: 0)
        #expect(s.takeOutgoing().map(\.line) == ["HELLO 2 alice", "JOIN duo"])
        s.receive("OK hello version=1 id=1 name=alice server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { s.receive(Substring(line), now: 0) }
        s.receive("OK joined duo id=1 seq=2", now: 0)
        #expect(s.phase == .joined)
        #expect(s.state == st)
        _ = s.takeOutput()
        return (s, st)
    }

    @Test func eventsAreMirroredAndToldAsLines() throws {
        var (s, _) = try joined()
        s.receive("EV 3 grabbed 2 2", now: 10)
        s.receive("EV 3 dragged 2 2 1 0 0,0", now: 11)
        #expect(s.state?.locks[2]?.holder == PlayerID(2))
        #expect(s.takeOutput().map(\.text) == ["bob grabbed piece 2", "bob dragged piece 2 to 1,0 → cell 0,0"])
        #expect(s.takeOutgoing().isEmpty)
    }

    /// The link drops and the session greets and joins again, the server's
    /// snapshot showing the room as `room`.
    func rejoin(_ s: inout ClientSession, finding room: RoomState, now: Int64) {
        s.connectionLost("the connection was cut")
        s.connected(now: now)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: now)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: room, picture: nil), now: now) { s.receive(Substring(line), now: now) }
        s.receive("OK joined duo id=1 seq=\(room.seq)", now: now)
    }

    /// Back after a dropped link, the server kept alice's hold: the rejoin says so.
    @Test func aHoldKeptAcrossAReconnectIsToldOnTheRejoin() throws {
        var (s, st) = try joined()
        var held = st
        try held.perform(.grab(piece: 3), by: PlayerID(1), at: 5)
        rejoin(&s, finding: held, now: 20)
        #expect(s.phase == .joined)
        #expect(s.state?.holder(of: 3) == PlayerID(1))
        let told = s.takeOutput().map(\.text)
        #expect(told.contains("you still hold piece 3: kept for you while the connection was down"), "\(told)")
        // The lease ran out meanwhile (or the server restarted): the piece is not
        // kept, and the rejoin says it went back rather than let it vanish.
        rejoin(&s, finding: st, now: 40)
        let again = s.takeOutput().map(\.text)
        #expect(again.contains { $0.hasPrefix("joined duo as alice") } && !again.contains { $0.hasPrefix("you still hold") }, "\(again)")
        #expect(again.contains("while you were away: your piece 3 went back"), "\(again)")
    }

    /// The events of the time the link was down never arrive: the rejoin tells
    /// what the new snapshot shows changed (pieces placed, who came).
    @Test func theRejoinTellsWhatChangedWhileAway() throws {
        var (s, st) = try joined()
        var later = st
        try later.perform(.leave, by: PlayerID(2), at: 5)
        try later.perform(.join(name: "carol"), by: PlayerID(3), at: 6)
        // Carol swaps a misplaced tile into its own cell (piece N belongs in cell N div 2, N mod 2).
        let piece = try #require((0..<4).first { later.pieces[$0].location != .board(Cell(row: $0 / 2, col: $0 % 2)) })
        let home = Cell(row: piece / 2, col: piece % 2)
        try later.perform(.grab(piece: piece), by: PlayerID(3), at: 7)
        try later.perform(.drag(piece: piece, to: later.geometry.origin(of: home)), by: PlayerID(3), at: 7)
        try later.perform(.drop(piece: piece), by: PlayerID(3), at: 7)
        let was = st.progress(at: 20).correct, now = later.progress(at: 20).correct
        #expect(now > was)
        rejoin(&s, finding: later, now: 20)
        let told = s.takeOutput().map(\.text)
        // Bob's leaving is not told: after a server restart everyone "left" until back.
        #expect(told.contains("while you were away: \(was)/4 -> \(now)/4 placed; carol joined"), "\(told)")
        // Nothing changed: nothing to tell.
        rejoin(&s, finding: later, now: 30)
        #expect(!s.takeOutput().contains { $0.text.hasPrefix("while you were away") })
        // A first connection is no return.
        var fresh = ClientSession(name: "alice", room: "duo")
        fresh.connected(now: 0)
        #expect(fresh.awayFrom == nil)
        // A link lost on the way to another room: the old room is no "before".
        s.submit("join other", now: 40)
        s.receive("S room other kind=swap size=2x2 rotation=off players=0 password=no puzzle=0 progress=0/4", now: 40)
        s.receive("OK rooms 1", now: 40)
        s.connectionLost("the connection was cut")
        s.connected(now: 41)
        #expect(s.room == "other" && s.awayFrom == nil)
    }

    /// Leaving would give the held piece back: a /join while holding is refused
    /// with what to do, and nothing is sent.
    @Test func aJoinWhileHoldingIsRefusedWithoutLeaving() throws {
        var (s, _) = try joined()
        s.receive("EV 3 grabbed 2 1", now: 1)
        _ = s.takeOutput()
        s.submit("join other", now: 2)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.takeOutput().map(\.text) == ["error: you hold piece 2: drop it or give it back (Esc, /release) before you go"])
        #expect(s.phase == .joined && s.room == "duo")
    }

    /// A grab on its way also stops a switch (it would be given back), a
    /// refused switch keeps the player where it was without a rejoin, and a
    /// switch the link dropped under is said to be undone.
    @Test func aSwitchWaitsForNoGrabStaysOnARefusalAndSaysWhenTheLinkDropped() throws {
        var (s, _) = try joined()
        s.submit("grab 2", now: 1)
        s.submit("join other", now: 1)
        #expect(s.takeOutgoing() == [.grab(2)])
        #expect(s.takeOutput().map(\.text).last == "error: you hold piece 2: drop it or give it back (Esc, /release) before you go")
        s.receive("EV 3 grabbed 2 1", now: 3)
        s.receive("OK grabbed 2", now: 3)
        s.receive("EV 4 released 2 1", now: 4)
        _ = s.takeOutput()
        // The server judges the new room before leaving the old one: no LEAVE.
        s.submit("join other secret", now: 5)
        #expect(s.takeOutgoing() == [.join(room: "other", password: "secret")])
        s.receive("ERR BAD_PASSWORD wrong room password", now: 6)
        #expect(s.phase == .joined && s.room == "duo")
        #expect(s.takeOutgoing().isEmpty, "no rejoin: the server kept the player in its room")
        #expect(s.takeOutput().map(\.text) == ["error BAD_PASSWORD: wrong room password", "you stay in duo"])
        s.submit("join other", now: 7)
        s.connectionLost("the connection was cut")
        s.connected(now: 8)
        #expect(s.takeOutput().map(\.text).contains("/join other was not done: the connection dropped; try it again"))
        #expect(s.takeOutgoing().map(\.line) == ["HELLO 2 alice", "JOIN duo"])
    }

    /// The runner wakes when the held piece's count of seconds changes.
    @Test func theLeaseCountTicksOnTheLeasesOwnSeconds() throws {
        var (s, _) = try joined()
        #expect(s.nextLeaseTick(after: 10) == nil)
        s.receive("EV 3 grabbed 2 1", now: 1_000)  // lease 10 s: lapses at 11_000
        #expect(s.nextLeaseTick(after: 6_500) == 7_000)   // 4.5 s left shows 5, then 4 at 7_000
        #expect(s.nextLeaseTick(after: 7_000) == 8_000)
        #expect(s.nextLeaseTick(after: 10_999) == 11_000)
        #expect(s.nextLeaseTick(after: 11_000) == nil)
        s.receive("EV 4 grabbed 3 2", now: 2_000)  // bob's hold is not counted on alice's screen
        #expect(s.nextLeaseTick(after: 6_500) == 7_000)
    }

    @Test func aHoldEndedByTheSolveIsToldToItsHolder() throws {
        var (s, _) = try joined()
        s.receive("EV 3 grabbed 2 1", now: 10)
        _ = s.takeOutput()
        s.receive("EV 4 solved 0 1234", now: 11)
        #expect(s.state?.locks.isEmpty == true)
        #expect(s.takeOutput().map(\.text).contains("your piece 2 went back: the puzzle is solved"))
        // Someone else's hold is theirs to hear about.
        var (t, _) = try joined()
        t.receive("EV 3 grabbed 2 2", now: 10)
        _ = t.takeOutput()
        t.receive("EV 4 solved 0 1234", now: 11)
        #expect(!t.takeOutput().contains { $0.text.hasPrefix("your piece") })
    }

    @Test func aGapAsksForSync() throws {
        var (s, _) = try joined()
        s.receive("EV 5 grabbed 2 2", now: 10)
        #expect(s.takeOutgoing() == [.sync])
        #expect(s.syncing)
        #expect(s.state?.locks.isEmpty == true)  // not applied
    }

    @Test func anEventNamingAMissingPieceIsNotAppliedButResynced() throws {
        var (s, _) = try joined()
        s.receive("EV 3 grabbed 99 2", now: 10)
        #expect(s.takeOutgoing() == [.sync])
    }

    @Test func repliesMatchRequestsInOrderWithTheirStateLines() throws {
        var (s, _) = try joined()
        s.submit("who", now: 1)
        s.submit("grab 1", now: 1)
        #expect(s.takeOutgoing() == [.who, .grab(1)])
        s.receive("S who 1 alice moves=0 holding=-", now: 2)
        s.receive("OK who 1", now: 2)
        s.receive("ERR HELD piece 1 is held by bob (#2)", now: 2)
        #expect(s.takeOutput().map(\.text) == ["  who 1 alice moves=0 holding=-", "ok: who 1", "error HELD: piece 1 is held by bob (#2)"])
        #expect(s.failedCommands == 1)
        #expect(s.pending.isEmpty)
    }

    /// A listing's lines say what they are as typed values (the full screen's
    /// window takes them by that, not by their text); other replies do not.
    @Test func listingLinesAreTypedEntriesAndAnEnd() throws {
        var (s, _) = try joined()
        s.submit("rooms", now: 1)
        _ = s.takeOutgoing()
        s.receive("S room duo kind=swap size=2x2 rotation=off players=0 password=no puzzle=0 progress=0/4 watchers=0", now: 2)
        s.receive("OK rooms 1", now: 2)
        let lines = s.takeOutput()
        #expect(lines.map(\.about) == [.listing(.entry("duo  swap 2x2  0 players  0/4 placed")), .listing(.end)])
        #expect(lines.map(\.text) == ["  room duo kind=swap size=2x2 rotation=off players=0 password=no puzzle=0 progress=0/4 watchers=0", "ok: rooms 1"])
    }

    @Test func unknownCommandsSendNothing() throws {
        var (s, _) = try joined()
        s.submit("fly 3", now: 1)
        s.submit("grab x", now: 1)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.failedCommands == 2)
        #expect(s.takeOutput().allSatisfy { $0.kind == .error })
    }

    @Test func placeDragsToTheCellOrigin() throws {
        var (s, _) = try joined()
        s.submit("place 1 1", now: 1)
        #expect(s.takeOutgoing() == [.drag(nil, Point(x: 4, y: 4))])
        // Holding nothing: the server's refusal is all there is to say.
        s.receive("ERR BAD_ARGS you hold no piece", now: 2)
        #expect(s.takeOutput().map(\.text) == ["error BAD_ARGS: you hold no piece"])
        // Holding: once the server has moved it, how to finish.
        s.receive("EV 3 grabbed 2 1", now: 3)
        _ = s.takeOutput()
        s.submit("place 1 1", now: 4)
        _ = s.takeOutgoing()
        s.receive("OK dragged 2 4 4 1,1", now: 5)
        #expect(s.takeOutput().map(\.text).suffix(1) == ["piece 2 is over cell 1,1: drop puts it in"])
        s.submit("place 2 0", now: 1)
        #expect(s.takeOutgoing().isEmpty)
    }

    @Test func pingMeasuresTheRoundTrip() throws {
        var (s, _) = try joined()
        s.ping(now: 100)
        _ = s.takeOutgoing()
        s.receive("PONG 100", now: 142)
        #expect(s.rttMillis == 42)
    }

    @Test func pointerPressGrabsAtTheOffsetDragsAndDrops() throws {
        var (s, st) = try joined()
        // Swap board, no margin: tile 3's corner is its cell's origin; press 1 unit into it.
        let corner = st.position(of: 3)
        let pressed = s.pointerPress(at: Point(x: corner.x + 1, y: corner.y + 2), now: 1)
        let hold = try #require(pressed)
        #expect(hold == PointerHold(piece: 3, offset: Point(x: 1, y: 2)))
        #expect(s.takeOutgoing() == [.grab(3)])
        // Before the grab is answered the drags already go (pipelined), keeping the offset.
        s.pointerDrag(hold, to: Point(x: 5, y: 6), now: 2)
        s.pointerDrag(hold, to: Point(x: 5, y: 6), now: 3)  // no move: nothing sent
        #expect(s.takeOutgoing() == [.drag(3, Point(x: 4, y: 4))])
        s.receive("EV 3 grabbed 3 1", now: 4)
        s.receive("OK grabbed 3", now: 4)
        // Kept on the table: far off, the corner stops at the last unit.
        s.pointerDrag(hold, to: Point(x: 100, y: -50), now: 5)
        #expect(s.takeOutgoing() == [.drag(3, Point(x: st.geometry.width - 4, y: 0))])
        s.pointerRelease(hold, now: 6)
        #expect(s.takeOutgoing() == [.drop(3)])
    }

    /// A play test saw one drag line up to four times: a pointer that comes
    /// back to where the piece already lies (the server's echo taken) sends
    /// nothing; a move away and back sends both.
    @Test func aDragToWhereThePieceLiesSendsNothing() throws {
        var (s, st) = try joined()
        // Swap board 2x2, unit 4: corners run from 0,0 to 4,4.
        let corner = st.position(of: 3)
        let pressed = s.pointerPress(at: corner, now: 1)
        let hold = try #require(pressed)
        #expect(hold == PointerHold(piece: 3, offset: Point(x: 0, y: 0)))
        s.receive("EV 3 grabbed 3 1", now: 2)
        s.receive("OK grabbed 3", now: 2)
        _ = s.takeOutgoing()
        s.pointerDrag(hold, to: corner, now: 3)
        #expect(s.takeOutgoing().isEmpty, "not moved from where it lies")
        let away = Point(x: 2, y: 1)
        s.pointerDrag(hold, to: away, now: 4)
        s.receive("EV 3 dragged 3 1 2 1 -", now: 5)
        s.receive("OK dragged 3 2 1 -", now: 5)
        s.pointerDrag(hold, to: away, now: 6)
        s.pointerDrag(hold, to: corner, now: 7)
        #expect(s.takeOutgoing() == [.drag(3, away), .drag(3, corner)])
    }

    @Test func pointerOnEmptyTableOrARefusedGrabSendsNoDrop() throws {
        var (s, _) = try joined()
        #expect(s.pointerPress(at: Point(x: -5, y: 0), now: 1) == nil)
        let pressed = s.pointerPress(at: Point(x: 0, y: 0), now: 1)
        let hold = try #require(pressed)
        _ = s.takeOutgoing()
        s.receive("ERR HELD piece \(hold.piece) is held by bob (#2)", now: 2)
        s.pointerDrag(hold, to: Point(x: 3, y: 3), now: 3)
        s.pointerRelease(hold, now: 4)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.takeOutput().map(\.text) == ["error HELD: piece \(hold.piece) is held by bob (#2)"])
    }
}

/// The full-screen prompt reads like IRC: text is chat, `/verb` is a command.
@Suite struct TypedLineTests {
    @Test func plainTextIsChatKeptAsTyped() throws {
        #expect(try ClientCommand.parseTyped("hello there") == .say("hello there"))
        #expect(try ClientCommand.parseTyped("rooms") == .say("rooms"))
        #expect(try ClientCommand.parseTyped("  ") == nil)
    }

    @Test func slashCommandsAreCommands() throws {
        #expect(try ClientCommand.parseTyped("/who") == .who)
        #expect(try ClientCommand.parseTyped("/GRAB 3") == .grab(3))
        #expect(try ClientCommand.parseTyped("/say hi") == .say("hi"))
        #expect(try ClientCommand.parseTyped("/mouse click") == .mouse(.click))
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/fly") }
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/") }
    }

    @Test func doubleSlashSendsASlash() throws {
        #expect(try ClientCommand.parseTyped("//shrug") == .say("/shrug"))
    }
}
