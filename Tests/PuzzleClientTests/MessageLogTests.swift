import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The message pane keeps what a player needs to read (issue 16: every grab, release and place
/// was a line, each Tab press two, and chat drowned), lets chat stand out, folds repeats.
@Suite struct MessageLogTests {
    static let alice = SceneFixtures.alice, bob = SceneFixtures.bob

    static func event(_ body: EventBody, completes: Bool = false) -> OutputLine {
        OutputLine(kind: body.isSequenced ? .event : .drag, text: "\(body)", about: .event(body, completes: completes))
    }

    @Test func othersMovesShowOnTheTableNotInTheLog() {
        let me = Self.alice
        let out: [EventBody] = [
            .grabbed(piece: 3, by: Self.bob), .grabbed(piece: 3, by: me),
            .dragged(piece: 3, by: Self.bob, to: Point(x: 1, y: 1), target: nil),
            .rotated(piece: 3, by: Self.bob, rotation: 1, target: nil),
            .returned(piece: 3, by: Self.bob, reason: .released), .returned(piece: 3, by: me, reason: .released),
            .returned(piece: 3, by: Self.bob, reason: .expired), .returned(piece: 3, by: Self.bob, reason: .left),
            .placed(piece: 3, by: Self.bob, at: .board(Cell(row: 0, col: 3)), rotation: 0),
            .placed(piece: 3, by: me, at: .table(Point(x: 2, y: 2)), rotation: 0),
            .swapped(piece: 1, other: 2, by: Self.bob),
        ]
        for body in out { #expect(!MessageLog.keeps(Self.event(body), me: me), "\(body)") }
        let kept: [OutputLine] = [
            Self.event(.joined(Self.bob, name: "bob")), Self.event(.left(Self.bob)),
            Self.event(.solved(puzzle: 0, elapsedMillis: 1000)), Self.event(.hint(by: Self.bob, untilMillis: 2000)),
            // One's own piece that went back by itself: the player reads why.
            Self.event(.returned(piece: 3, by: me, reason: .expired)), Self.event(.returned(piece: 3, by: me, reason: .noTarget)),
            // A drop that completes a row or column, anyone's.
            Self.event(.placed(piece: 3, by: Self.bob, at: .board(Cell(row: 0, col: 3)), rotation: 0), completes: true),
            Self.event(.swapped(piece: 1, other: 2, by: Self.bob), completes: true),
            OutputLine(kind: .chat, text: "<bob> hi", about: .chat(from: Self.bob, words: "hi")),
            OutputLine(kind: .error, text: "error HELD: piece 3 is held by bob (#2)"),
            OutputLine(kind: .info, text: "your piece 3 went back: the puzzle is solved"),
            OutputLine(kind: .reply, text: "ok: created den", about: .reply(to: .create(try! RoomSpec.parse(["den", "jigsaw", "3x3"])))),
        ]
        for line in kept { #expect(MessageLog.keeps(line, me: me), "\(line.text)") }
    }

    /// Each action of one's own reads once, if at all: the reply that repeats its event stays out.
    @Test func repliesThatRepeatAnEventStayOut() {
        let requests: [Request] = [.grab(3), .drop(nil), .release(nil), .say("hi"), .drag(nil, Point(x: 4, y: 4)), .rotate(nil), .hint, .next]
        for request in requests {
            #expect(!MessageLog.keeps(OutputLine(kind: .reply, text: "ok: \(request.verb.lowercased())", about: .reply(to: request)), me: Self.alice))
        }
        #expect(!MessageLog.keeps(OutputLine(kind: .drag, text: "bob dragged piece 1 to 4,4 → cell 0,0"), me: Self.alice))
    }

    /// The client's own reload (a `next` with a new picture fetches its pixels)
    /// read like an error on everyone's screen: it stays out; a /sync the
    /// player asked for is answered.
    @Test func theClientsOwnResyncStaysOutOfTheLog() throws {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 5))
        try st.perform(.join(name: "alice"), by: Self.alice, at: 0)
        var s = ClientSession(name: "alice", room: "duo")
        s.connected(now: 0)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=\(Self.alice.rawValue) name=alice server=puzzle-room", now: 0)
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0)
        for line in lines { s.receive(Substring(line), now: 0) }
        s.receive("OK joined duo id=\(Self.alice.rawValue) seq=\(st.seq)", now: 0)
        _ = s.takeOutput()
        s.requestSync(now: 1)
        for line in lines { s.receive(Substring(line), now: 1) }
        s.receive("OK sync seq=\(st.seq) digest=0", now: 1)
        let automatic = s.takeOutput()
        #expect(automatic.map(\.text) == ["resynced at seq \(st.seq)"], "plain mode still tells it")
        #expect(!automatic.contains { MessageLog.keeps($0, me: Self.alice) })
        s.submit("sync", now: 2)
        for line in lines { s.receive(Substring(line), now: 2) }
        s.receive("OK sync seq=\(st.seq) digest=0", now: 2)
        #expect(s.takeOutput().filter { MessageLog.keeps($0, me: Self.alice) }.map(\.text) == ["ok: sync seq=\(st.seq) digest=0"])
    }

    /// A Tab press (release one piece, grab the next) adds nothing; chat is not pushed out.
    @Test func tabPressesLeaveTheChatInView() throws {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), seed: 5))
        var ev: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: Self.alice, at: 0, into: &ev)
        try st.perform(.join(name: "bob"), by: Self.bob, at: 0, into: &ev)
        var session = ClientSession(name: "alice", room: "duo")
        session.connected(now: 0)
        _ = session.takeOutgoing()
        session.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { session.receive(Substring(line), now: 0) }
        session.receive("OK joined duo id=1 seq=2", now: 0)
        #expect(session.phase == .joined)
        var log = MessageLog()
        session.receive("EV 3 say 2 look here alice", now: 1)
        // Five Tab presses of alice's and five of bob's: a release and a grab each.
        var seq = 4
        for i in 0..<5 {
            for (piece, player) in [(i % 4, 1), ((i + 1) % 4, 2)] {
                session.receive(Substring("EV \(seq) grabbed \(piece) \(player)"), now: 2)
                session.receive(Substring("EV \(seq + 1) released \(piece) \(player)"), now: 2)
                seq += 2
            }
        }
        let lines = session.takeOutput()
        #expect(lines.count >= 21, "the session still tells every move (plain mode prints them)")
        for line in lines { log.add(line, me: session.myID, width: 80) }
        #expect(log.shownLines.map(\.text).suffix(1) == ["<bob> look here alice"], "\(log.shownLines.map(\.text))")
    }

    @Test func repeatsFoldIntoOneLineWithACount() {
        var log = MessageLog()
        let busy = OutputLine(kind: .error, text: "error HELD: piece 3 is held by bob (#2)")
        for _ in 0..<3 { log.add(busy, me: Self.alice, width: 80) }
        #expect(log.shownLines.map(\.text) == ["error HELD: piece 3 is held by bob (#2) (x3)"])
        log.add(OutputLine(kind: .info, text: "note"), me: Self.alice, width: 80)
        log.add(busy, me: Self.alice, width: 80)
        #expect(log.shownLines.map(\.text) == ["error HELD: piece 3 is held by bob (#2) (x3)", "note", "error HELD: piece 3 is held by bob (#2)"])
    }

    @Test func aMentionIsTheNameAsAWordInAnyCase() {
        #expect(MessageLog.mentions("carol: look", name: "carol"))
        #expect(MessageLog.mentions("hey @Carol!", name: "carol"))
        #expect(MessageLog.mentions("CAROL", name: "carol"))
        #expect(!MessageLog.mentions("carolina here", name: "carol"))
        #expect(!MessageLog.mentions("mycarol", name: "carol"))
        #expect(!MessageLog.mentions("bob-carol", name: "bob"))
        let fromBob = OutputLine(kind: .chat, text: "<bob> carol?", about: .chat(from: Self.bob, words: "carol?"))
        #expect(MessageLog.mentions(fromBob, name: "carol", me: Self.alice))
        // One's own line naming oneself is not news; the speaker's name is not a mention.
        #expect(!MessageLog.mentions(fromBob, name: "carol", me: Self.bob))
        #expect(!MessageLog.mentions(OutputLine(kind: .chat, text: "<carol> hi", about: .chat(from: Self.bob, words: "hi")), name: "carol", me: Self.alice))
    }

    @Test func theChatOnlyViewShowsChatAndScrollsToTheNewest() {
        var log = MessageLog()
        log.add(OutputLine(kind: .chat, text: "<bob> one", about: .chat(from: Self.bob, words: "one")), me: Self.alice, width: 80)
        log.add(Self.event(.joined(PlayerID(3), name: "carol")), me: Self.alice, width: 80)
        for i in 0..<10 { log.add(OutputLine(kind: .info, text: "note \(i)"), me: Self.alice, width: 80) }
        log.add(OutputLine(kind: .chat, text: "<bob> two", about: .chat(from: Self.bob, words: "two")), me: Self.alice, width: 80)
        log.scroll(by: 4, width: 80, shown: 5)
        #expect(log.scroll == 4)
        log.setChatOnly(nil)
        #expect(log.chatOnly && log.scroll == 0)
        #expect(log.shownLines.map(\.text) == ["<bob> one", "<bob> two"])
        log.setChatOnly(false)
        #expect(log.shownLines.count == 13)
    }

    @Test func theCommandAndItsHelp() throws {
        #expect(try ClientCommand.parseTyped("/chat") == .chatOnly(nil))
        #expect(try ClientCommand.parseTyped("/chat on") == .chatOnly(true))
        #expect(try ClientCommand.parseTyped("/chat off") == .chatOnly(false))
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/chat maybe") }
        #expect(ClientCommand.slashHelpLines(lid: true).contains { $0.contains("Ctrl-T") && $0.contains("chat") })
    }

    /// The session says which drops complete a row or a column, as a typed flag and in words.
    @Test func aDropThatCompletesARowIsSaid() throws {
        let spec = try PuzzleSpec(kind: .swap, rows: 2, cols: 2)
        var st = RoomState(settings: RoomSettings(first: spec, seed: 5))
        var events: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: Self.alice, at: 0, into: &events)
        // Put tiles 0..3 home by swaps until exactly one is wrong in row 0, then the completing swap.
        func home(_ p: Int) -> Cell { Cell(row: p / 2, col: p % 2) }
        func tile(at c: Cell) -> Int { (0..<4).first { st.pieces[$0].location == .board(c) }! }
        for p in [2, 3] where st.pieces[p].location != .board(home(p)) {
            let other = tile(at: home(p))
            try st.apply(RoomEvent(seq: st.seq + 1, time: 1, body: .swapped(piece: p, other: other, by: Self.alice)))
        }
        #expect(EventText.completedLines(by: .swapped(piece: 2, other: 3, by: Self.alice), in: st) == ["row 1"])
        // Tiles 0 and 1 the wrong way round, then the swap that puts both home.
        if st.isCorrect(0) { try st.apply(RoomEvent(seq: st.seq + 1, time: 1, body: .swapped(piece: 0, other: 1, by: Self.alice))) }
        #expect(!st.isCorrect(0) && !st.isCorrect(1))
        #expect(EventText.completedLines(by: .swapped(piece: 0, other: 1, by: Self.alice), in: st) == [])
        try st.apply(RoomEvent(seq: st.seq + 1, time: 1, body: .swapped(piece: 0, other: 1, by: Self.alice)))
        #expect(EventText.completedLines(by: .swapped(piece: 0, other: 1, by: Self.alice), in: st) == ["row 0", "column 0", "column 1"])
        #expect(EventText.completedLines(by: .grabbed(piece: 2, by: Self.alice), in: st) == [])
    }
}

/// The pane as drawn: chat in its own style, a mention highlighted, the chat-only view labelled.
@Suite struct MessagePaneStyleTests {
    @Test func chatStandsOutAndAMentionIsHighlighted() throws {
        var scene = SceneFixtures.scene(try SceneFixtures.twoDrags(kind: .swap), colorMode: .trueColor, width: 80, height: 24)
        scene.messages = [
            OutputLine(kind: .event, text: "bob (#2) joined"),
            OutputLine(kind: .chat, text: "<bob> hello", about: .chat(from: SceneFixtures.bob, words: "hello")),
            OutputLine(kind: .chat, text: "<bob> alice, look at 你好 here", about: .chat(from: SceneFixtures.bob, words: "alice, look at 你好 here")),
            OutputLine(kind: .error, text: "error HELD: piece 3 is held by bob (#2) (x3)"),
            OutputLine(kind: .chat, text: "<alice> alice is me", about: .chat(from: SceneFixtures.alice, words: "alice is me")),
        ]
        let frame = SceneRenderer.render(scene)
        let rows = SceneFixtures.rows(frame)
        #expect(Array(rows[17...22]) == [
            "--------------------------------------------------------------------------------",
            "bob (#2) joined                                                                 ",
            "<bob> hello                                                                     ",
            "<bob> alice, look at 你好 here                                                  ",
            "error HELD: piece 3 is held by bob (#2) (x3)                                    ",
            "<alice> alice is me                                                             ",
        ])
        let event = frame[18, 0].style, chat = frame[19, 0].style, mention = frame[20, 0].style, own = frame[22, 0].style
        #expect(event == .default)
        #expect(chat.bold && chat != event && !chat.inverse)
        #expect(mention.inverse && mention != chat)
        // The highlight runs across the pane, not only under the words.
        #expect(frame[20, 79].style == mention)
        #expect(own == chat)
    }

    @Test func theChatOnlyViewSaysSo() throws {
        var scene = SceneFixtures.scene(try SceneFixtures.twoDrags(kind: .swap), colorMode: .plain, width: 80, height: 24)
        scene.chatOnly = true
        let rows = SceneFixtures.rows(SceneRenderer.render(scene))
        #expect(rows[17] == "-- chat only (Ctrl-T shows all) ".padding(toLength: 80, withPad: "-", startingAt: 0))
    }
}
