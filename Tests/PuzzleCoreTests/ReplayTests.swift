import Testing
@testable import PuzzleCore

/// A puzzle's replay (issue 20): the recorder keeps every move with who made
/// it and the puzzle clock, counts who put pieces right; the playback shows
/// the moves at the chosen speed on an injected clock and ends solved.
@Suite struct ReplayRecordingTests {
    /// Plans an action, shows its events to the recorder, then applies them
    /// (what the server does with every request).
    static func act(_ action: Action, by player: PlayerID, at time: Int64, on state: inout RoomState,
                    recorder: inout ReplayRecorder) throws -> PuzzleReplay? {
        var events: [RoomEvent] = []
        let outcome = try state.plan(action, by: player, at: time, into: &events)
        var solved: PuzzleReplay?
        for e in events { if let done = recorder.observe(e, before: state) { solved = done } }
        state.apply(planned: events)
        state.apply(outcome)
        return solved
    }

    static func drop(_ piece: Int, at point: Point, by player: PlayerID, at time: Int64, on state: inout RoomState,
                     recorder: inout ReplayRecorder) throws -> PuzzleReplay? {
        _ = try act(.grab(piece: piece), by: player, at: time, on: &state, recorder: &recorder)
        _ = try act(.drag(piece: piece, to: point), by: player, at: time, on: &state, recorder: &recorder)
        return try act(.drop(piece: piece), by: player, at: time, on: &state, recorder: &recorder)
    }

    @Test func theRecorderKeepsEveryMoveWithWhoAndWhenAndEndsSolved() throws {
        var state = try makeRoom(.jigsaw, 2, 2)
        var recorder = ReplayRecorder(startOf: state)
        let start = state.pieces
        let home = { (p: Int) in state.geometry.origin(of: state.homeCell(of: p)) }
        // A drop where the piece lay is no move: not recorded.
        #expect(try Self.drop(0, at: state.position(of: 0), by: alice, at: 100, on: &state, recorder: &recorder) == nil)
        #expect(recorder.replay.moves.isEmpty)
        _ = try Self.drop(0, at: home(0), by: alice, at: 1_000, on: &state, recorder: &recorder)
        _ = try Self.drop(1, at: home(1), by: bob, at: 2_000, on: &state, recorder: &recorder)
        _ = try Self.drop(2, at: home(2), by: bob, at: 3_000, on: &state, recorder: &recorder)
        let done = try #require(try Self.drop(3, at: home(3), by: alice, at: 4_500, on: &state, recorder: &recorder))
        #expect(done.moves.map(\.piece) == [0, 1, 2, 3])
        #expect(done.moves.map(\.player) == [alice, bob, bob, alice])
        #expect(done.moves.map(\.elapsed) == [1_000, 2_000, 3_000, 4_500], "the puzzle clock, from the first join at 0")
        #expect(done.solvedMillis == 4_500 && done.moveCount == 4)
        #expect(done.players == [ReplayPlayer(id: alice, name: "alice", placed: 2, moves: 2),
                                 ReplayPlayer(id: bob, name: "bob", placed: 2, moves: 2)])
        #expect(done.startState().pieces == start)
        #expect(done.state(after: 4).correctCount == 4 && done.state(after: 4).pieces == state.pieces)
    }

    @Test func aSwapPuttingBothTilesRightCountsTwo() throws {
        var state = try makeRoom(.swap, 2, 2)
        var recorder = ReplayRecorder(startOf: state)
        var solved: PuzzleReplay?
        var guardCount = 0
        while solved == nil && guardCount < 10 {
            guardCount += 1
            // Take the first tile out of place to its own cell.
            let piece = (0..<state.pieceCount).first { !state.isCorrect($0) }!
            solved = try Self.drop(piece, at: state.geometry.origin(of: state.homeCell(of: piece)), by: bob, at: Int64(guardCount * 100),
                                   on: &state, recorder: &recorder)
        }
        let r = try #require(solved)
        #expect(r.players.count == 1 && r.players[0].placed == 4 && r.players[0].moves == r.moves.count)
        #expect(r.state(after: r.moves.count).correctCount == 4)
    }

    @Test func nextStartsAFreshReplayOfTheNewPuzzle() throws {
        var state = try makeRoom(.jigsaw, 2, 2)
        var recorder = ReplayRecorder(startOf: state)
        for p in 0..<4 {
            _ = try Self.drop(p, at: state.geometry.origin(of: state.homeCell(of: p)), by: alice, at: 10, on: &state, recorder: &recorder)
        }
        _ = try Self.act(.next, by: alice, at: 20, on: &state, recorder: &recorder)
        #expect(recorder.replay.puzzle == 1 && recorder.replay.moves.isEmpty && recorder.replay.spec == state.spec)
        #expect(recorder.replay.startState().pieces == state.pieces, "the start of puzzle 1 follows from the seed")
    }
}

@Suite struct ReplayPlaybackTests {
    /// A 2x2 jigsaw's replay: each piece home, at 1 s, 1.5 s, 30 s and 30.2 s of play.
    static func replay() throws -> PuzzleReplay {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2)
        var r = PuzzleReplay(puzzle: 0, spec: spec, seed: 42, solvedMillis: 30_200)
        let start = r.startState()
        for (p, t) in zip(0..<4, [Int64(1_000), 1_500, 30_000, 30_200]) {
            r.moves.append(ReplayMove(elapsed: t, player: p < 2 ? alice : bob,
                                      change: .placed(piece: p, at: .board(start.homeCell(of: p)), rotation: 0)))
        }
        r.players = [ReplayPlayer(id: alice, name: "alice", placed: 2, moves: 2), ReplayPlayer(id: bob, name: "bob", placed: 2, moves: 2)]
        return r
    }

    @Test func movesComeAtTheirTimesTimesTheSpeedWithLongPausesCut() throws {
        var playback = ReplayPlayback(try Self.replay(), speed: 4, now: 10_000)
        #expect(playback.shown == 0 && playback.nextDue() == 10_250)
        playback.advance(to: 10_249)
        #expect(playback.shown == 0)
        playback.advance(to: 10_250)
        #expect(playback.shown == 1 && playback.lastMove?.player == alice && playback.nextDue() == 10_375)
        playback.advance(to: 10_375)
        #expect(playback.shown == 2)
        // The 28.5 s pause in play counts 2 s: at 4x, half a second.
        #expect(playback.nextDue() == 10_875)
        playback.advance(to: 10_874)
        #expect(playback.shown == 2)
        playback.advance(to: 10_925)
        #expect(playback.shown == 4 && playback.isFinished && playback.nextDue() == nil)
        #expect(playback.state.correctCount == 4 && playback.elapsedShown == 30_200)
    }

    @Test func pauseSpeedStepAndSkip() throws {
        var playback = ReplayPlayback(try Self.replay(), speed: 1, now: 0)
        playback.togglePause(now: 500)
        playback.advance(to: 60_000)
        #expect(playback.paused && playback.shown == 0 && playback.nextDue() == nil)
        playback.step(now: 60_000)
        #expect(playback.shown == 1 && playback.elapsedShown == 1_000)
        playback.togglePause(now: 60_000)
        playback.changeSpeed(faster: true, now: 60_000)
        playback.changeSpeed(faster: true, now: 60_000)
        #expect(playback.speed == 4 && playback.nextDue() == 60_125)
        for _ in 0..<10 { playback.changeSpeed(faster: true, now: 60_000) }
        #expect(playback.speed == ReplayPlayback.speeds.last)
        playback.skipToEnd(now: 60_001)
        #expect(playback.isFinished && playback.state.correctCount == 4)
        #expect(ReplayPlayback(try Self.replay(), speed: 5, now: 0).speed == 4, "the nearest offered speed below")
    }

    @Test func playersKeepTheColoursTheyHaveWhereTheReplayIsWatched() throws {
        var r = try Self.replay()
        r.players.append(ReplayPlayer(id: PlayerID(9), name: "carol"))
        let playback = ReplayPlayback(r, now: 0, colorSlots: [bob: 0, alice: 2])
        #expect(playback.state.players.mapValues(\.colorSlot) == [alice: 2, bob: 0, PlayerID(9): 1])
        // Moves count for their movers as they are shown.
        var p = playback
        p.skipToEnd(now: 1)
        #expect(p.state.players[alice]?.moves == 2 && p.state.players[bob]?.moves == 2)
        #expect(p.shownState(now: 1).locks.isEmpty, "at the end, nothing in hand: the solved board")
        p.rewind(now: 2)
        #expect(p.shown == 0 && p.paused && p.state.players[alice]?.moves == 0)
    }

    @Test func damagedMovesAreSkippedNotTrapped() throws {
        var r = try Self.replay()
        r.moves.insert(ReplayMove(elapsed: 1_100, player: bob, change: .placed(piece: 99, at: .board(Cell(row: 0, col: 0)), rotation: 0)), at: 1)
        r.moves.insert(ReplayMove(elapsed: 1_200, player: bob, change: .swapped(piece: 0, other: 1)), at: 2)
        r.moves.insert(ReplayMove(elapsed: 1_300, player: bob, change: .placed(piece: 2, at: .board(Cell(row: 0, col: 0)), rotation: 0)), at: 3)
        var playback = ReplayPlayback(r, speed: 64, now: 0)
        playback.skipToEnd(now: 1)
        #expect(playback.isFinished && playback.state.correctCount == 4)
    }
}
