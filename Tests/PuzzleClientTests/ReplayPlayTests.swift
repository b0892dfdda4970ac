import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Watch it again in the full screen, without a terminal: the solved banner
/// asks for its numbers, `/history` and `/replay` go out as requests, and a
/// replay plays on the app's clock over the table while the live room goes on.
@Suite struct ReplayPlayTests {
    @Test func commandsParse() throws {
        #expect(try ClientCommand.parseTyped("/history") == .history)
        #expect(try ClientCommand.parseTyped("/replay") == .replay(puzzle: nil, speed: nil))
        #expect(try ClientCommand.parseTyped("/replay 3") == .replay(puzzle: 3, speed: nil))
        #expect(try ClientCommand.parseTyped("/replay 3 16x") == .replay(puzzle: 3, speed: 16))
        #expect(try ClientCommand.parseTyped("/replay 2X") == .replay(puzzle: nil, speed: 2))
        #expect(try ClientCommand.parseTyped("/replay off") == .replayStop)
        for bad in ["/replay 128x", "/replay 1 2 3", "/replay -1", "/replay x", "/replay 4x 3"] {
            #expect(throws: ClientCommand.ParseError.self, "\(bad)") { try ClientCommand.parseTyped(bad) }
        }
        #expect(ClientCommand.slashHelpLines(lid: false).contains { $0.hasPrefix("/replay [N] [Sx]") })
    }

    /// alice's app, joined to a 2x2 `duo`, and the REPLAY lines of its solve
    /// by alice (pieces 0, 1) and bob (2, 3), each a second apart.
    static func solved() throws -> (PlayApp, RoomState, [String]) {
        var (app, st) = try PlayAppTests.joined()
        var recorder = ReplayRecorder(startOf: st)
        var lines: [String] = []
        for (piece, who) in [(0, 1), (1, 1), (2, 2), (3, 2)] {
            let player = PlayerID(who)
            var events: [RoomEvent] = []
            let time = Int64(1_000 * (piece + 1))
            try st.perform(.grab(piece: piece), by: player, at: time, into: &events)
            try st.perform(.drag(piece: piece, to: st.geometry.origin(of: st.homeCell(of: piece))), by: player, at: time, into: &events)
            events.removeAll()
            let outcome = try st.plan(.drop(piece: piece), by: player, at: time, into: &events)
            for e in events { recorder.observe(e, before: st) }
            st.apply(planned: events)
            st.apply(outcome)
        }
        var replayLines: [UInt8] = []
        ReplayCodec.encode(recorder.replay, into: &replayLines)
        lines = String(decoding: replayLines, as: UTF8.self).split(separator: "\n").map(String.init)
        return (app, st, lines)
    }

    @Test func theSolvedBannerAsksForItsNumbersAndShowsThem() throws {
        var (app, st) = try PlayAppTests.joined()
        _ = app.takeRequests()
        app.handle(.serverLine(Substring("EV \(st.seq + 1) solved 0 8021")), now: 10)
        #expect(app.takeRequests().map(\.line) == ["HISTORY 0"], "asked once, quietly")
        for line in ["S history 0 jigsaw 2x2 off sunset elapsed=8021 moves=5 players=2",
                     "S history-player 0 1 placed=1 moves=3 alice", "S history-player 0 2 placed=3 moves=2 bob", "OK history 1"] {
            app.handle(.serverLine(Substring(line)), now: 20)
        }
        let scene = app.scene(now: 30)
        #expect(scene.solvedBanner == "puzzle 0 solved in 8.0 s")
        #expect(scene.solvedStats == "5 moves; placed: bob 3, alice 1")
        // Another room's puzzle 0 (a play test's find: its banner showed
        // these numbers): a switch forgets them, and its solve asks again.
        PlayAppTests.type("/join trio", into: &app, now: 40)
        #expect(app.takeRequests().map(\.line) == ["JOIN trio"])
        var other = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 8))
        var ev: [RoomEvent] = []
        try other.perform(.join(name: "alice"), by: PlayerID(1), at: 0, into: &ev)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "trio", state: other, picture: nil), now: 0) + ["OK joined trio id=1 seq=\(other.seq)"] {
            app.handle(.serverLine(Substring(line)), now: 50)
        }
        #expect(app.scene(now: 60).solvedStats == nil)
        app.handle(.serverLine(Substring("EV \(other.seq + 1) solved 0 4000")), now: 70)
        #expect(app.takeRequests().map(\.line) == ["HISTORY 0"])
        _ = st
    }

    @Test func aReplayPlaysOnTheAppsClockAndEscReturnsToTheRoom() throws {
        var (app, st, replayLines) = try Self.solved()
        st = try PlayAppTests.joined().1
        _ = app.takeRequests()
        PlayAppTests.type("/replay 0 2x", into: &app, now: 10_000)
        #expect(app.takeRequests().map(\.line) == ["REPLAY 0"])
        for line in replayLines + ["OK replay 0 4"] { app.handle(.serverLine(Substring(line)), now: 10_100) }
        let playing = try #require(app.replay)
        #expect(playing.playback.speed == 2 && playing.playback.shown == 0)
        // The moves at 1, 2, 3, 4 s of play; at 2x the first comes half a second in.
        #expect(app.replay?.playback.nextDue() == 10_600 && app.nextWake(after: 10_100) <= 10_600)
        app.handle(.tick, now: 10_600)
        #expect(app.replay?.playback.shown == 1)
        var scene = app.scene(now: 10_600)
        #expect(scene.room == "duo: replay 0")
        #expect(scene.replayStatus == ["2x", "move 1/4", "0:01", "alice placed piece 0 in cell 0,0"])
        #expect(scene.panelKeys?.last == "Esc back to the room" && scene.replayBanner == nil)
        #expect(scene.state?.locks[0]?.holder == PlayerID(1), "the piece just moved is shown in its mover's hand")
        // The live room goes on underneath: a chat line arrives and is kept.
        app.handle(.serverLine(Substring("EV \(st.seq) say 2 still here")), now: 10_700)
        app.handle(.key(.end), now: 10_800)
        scene = app.scene(now: 10_800)
        #expect(scene.state?.correctCount == 4 && scene.state?.locks.isEmpty == true, "the end: the solved board")
        #expect(scene.replayBanner?.first == "*** replay of puzzle 0: solved in 4.0 s ***")
        #expect(scene.replayStatus?.first == "the end")
        // Table clicks do nothing on the replayed board.
        _ = app.takeRequests()
        app.handle(.key(.mouse(MouseEvent(button: .left, action: .press, row: 8, column: 20))), now: 10_900)
        #expect(!app.takeRequests().contains { $0.isPlay })
        app.handle(.key(.escape), now: 11_000)
        #expect(app.replay == nil)
        scene = app.scene(now: 11_000)
        #expect(scene.room == "duo" && scene.messages.contains { $0.text.contains("still here") })
    }

    @Test func aReplayInPagesIsAskedForPageByPage() throws {
        var (app, _, lines) = try Self.solved()
        _ = app.takeRequests()
        PlayAppTests.type("/replay 0", into: &app, now: 1)
        #expect(app.takeRequests().map(\.line) == ["REPLAY 0"])
        let moves = lines.filter { $0.hasPrefix("S replay ") }
        for line in lines.filter({ !$0.hasPrefix("S replay ") }) + moves.prefix(2) + ["OK replay 0 2 more=2"] {
            app.handle(.serverLine(Substring(line)), now: 2)
        }
        #expect(app.replay == nil && app.takeRequests().map(\.line) == ["REPLAY 0 2"])
        for line in moves.suffix(2) + ["OK replay 0 2"] { app.handle(.serverLine(Substring(line)), now: 3) }
        #expect(app.replay?.replay.moves.count == 4 && app.replay?.replay.players.count == 2)
    }

    @Test func noReplayWhileHoldingAPieceOrBeforeASolve() throws {
        var (app, st) = try PlayAppTests.joined()
        _ = app.takeRequests()
        PlayAppTests.type("/replay", into: &app, now: 1)
        #expect(app.takeRequests().isEmpty)
        #expect(app.log.shownLines.last?.text.contains("no puzzle solved here yet") == true)
        PlayAppTests.grant(0, to: &app, seq: st.seq + 1, now: 2)
        PlayAppTests.type("/replay 0", into: &app, now: 3)
        #expect(app.takeRequests().isEmpty)
        #expect(app.log.shownLines.last?.text.contains("you hold piece 0") == true)
    }
}
