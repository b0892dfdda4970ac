import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Drags told as lines (plain mode) or not at all (the full screen, whose log never
/// shows them): either way the mirror moves the same, and every other line is the same.
@Suite struct DragTellingTests {
    /// A session joined to a 2x2 swap room (alice #1, bob #2), bob holding piece 2.
    func joined(tellsDrags: Bool) throws -> ClientSession {
        var (s, _) = try ClientSessionTests().joined()
        s.tellsDrags = tellsDrags
        s.receive("EV 3 grabbed 2 2", now: 1)
        _ = s.takeOutput()
        return s
    }

    /// What a run of others' and own drags leaves: the mirror, and the lines said.
    func play(_ s: inout ClientSession) -> [OutputLine] {
        s.receive("EV 3 dragged 2 2 1 0 0,0", now: 2)
        s.receive("EV 4 grabbed 3 1", now: 3)
        s.dragHeld(dx: 1, dy: 0, now: 4)
        _ = s.takeOutgoing()
        // The dragger gets its drag's event, then the OK.
        s.receive("EV 4 dragged 3 1 5 4 1,1", now: 5)
        s.receive("OK dragged 3 5 4 1,1", now: 5)
        s.submit("place 1 0", now: 6)
        _ = s.takeOutgoing()
        s.receive("EV 4 dragged 3 1 0 4 1,0", now: 7)
        s.receive("OK dragged 3 0 4 1,0", now: 7)
        return s.takeOutput()
    }

    @Test func plainModeTellsEveryDragAndItsReply() throws {
        var s = try joined(tellsDrags: true)
        let told = play(&s)
        #expect(told.map(\.text) == [
            "bob dragged piece 2 to 1,0 → cell 0,0",
            "alice grabbed piece 3",
            "alice dragged piece 3 to 5,4 → cell 1,1",
            "ok: dragged 3 5 4 1,1",
            "alice dragged piece 3 to 0,4 → cell 1,0",
            "ok: dragged 3 0 4 1,0",
            "piece 3 is over cell 1,0: drop puts it in",
        ])
        #expect(told.map(\.kind) == [.drag, .event, .drag, .reply, .drag, .reply, .info])
    }

    @Test func theFullScreenSessionSaysNoDragButMovesTheMirrorAlike() throws {
        var plain = try joined(tellsDrags: true)
        var full = try joined(tellsDrags: false)
        let plainLines = play(&plain)
        let fullLines = play(&full)
        #expect(full.state == plain.state)
        #expect(full.state?.locks[2]?.point == Point(x: 1, y: 0))
        #expect(full.state?.locks[3]?.point == Point(x: 0, y: 4))
        // The own drag's OK cleared the point shown ahead of the echo, as before.
        #expect(full.localDrag == nil && plain.localDrag == nil)
        #expect(full.pending.isEmpty && plain.pending.isEmpty)
        // Everything else is said as in plain mode, the place note included.
        #expect(fullLines.map(\.text) == ["alice grabbed piece 3", "piece 3 is over cell 1,0: drop puts it in"])
        #expect(fullLines == plainLines.filter { $0.kind != .drag && !$0.text.hasPrefix("ok: dragged") })
        // What the log keeps is the same either way.
        let kept = { (lines: [OutputLine]) in lines.filter { MessageLog.keeps($0, me: PlayerID(1)) } }
        #expect(kept(fullLines) == kept(plainLines))
    }

    /// A drag that does not apply (a piece the mirror has not) is still a gap: reload.
    @Test func anInapplicableDragReloadsWithoutTellingIt() throws {
        var s = try joined(tellsDrags: false)
        let before = s.state
        s.receive("EV 3 dragged 9 2 1 0 -", now: 2)
        #expect(s.state == before)
        #expect(s.takeOutgoing() == [.sync])
        #expect(s.takeOutput().isEmpty)
    }

    /// A refused drag is told in both modes (the player asked for it).
    @Test func aRefusedDragIsToldInBothModes() throws {
        for tells in [true, false] {
            var s = try joined(tellsDrags: tells)
            s.receive("EV 4 grabbed 3 1", now: 3)
            _ = s.takeOutput()
            s.dragHeld(dx: 1, dy: 0, now: 4)
            _ = s.takeOutgoing()
            s.receive("ERR RATE_LIMITED too many drags", now: 5)
            #expect(s.takeOutput().map(\.text) == ["error RATE_LIMITED: too many drags"])
            #expect(s.localDrag == nil)
        }
    }

    @Test func thePlayAppTurnsDragLinesOff() {
        let app = PlayApp(session: ClientSession(name: "alice", room: "duo"), colorMode: .trueColor)
        #expect(!app.session.tellsDrags)
    }
}
