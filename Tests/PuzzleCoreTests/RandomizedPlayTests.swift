import Testing
import PuzzleTestSupport
@testable import PuzzleCore

/// Eight simulated players hammer one room with random actions; after every action
/// the board must be consistent, and replaying the event log must reproduce it.
@Suite struct RandomizedPlayTests {
    /// `plan` never touches the state, and the `solved` it predicts before the
    /// drop is applied is right: after applying what it planned, the puzzle is
    /// solved exactly when every piece is correct.
    @Test(arguments: [PuzzleKind.swap, .jigsaw])
    func planChangesNothingAndPredictsSolves(kind: PuzzleKind) throws {
        // Small boards, so that random play solves them (and `solved` is predicted) often.
        let spec = try PuzzleSpec(kind: kind, rows: kind == .swap ? 2 : 4, cols: kind == .swap ? 3 : 4)
        let settings = RoomSettings(first: spec, leaseMillis: 2_000, maxHeld: 2, seed: 31)
        var room = RoomState(settings: settings)
        var rng = SeededGenerator(seed: 5)
        let players = (1...4).map(PlayerID.init)
        var time: Int64 = 0
        for p in players { try room.perform(.join(name: "p\(p.rawValue)"), by: p, at: time) }
        var solves = 0
        for _ in 0..<20_000 {
            time += Int64(rng.next() % 40)
            var lapsed: [RoomEvent] = []
            room.expireLeases(at: time, into: &lapsed)
            let player = players[Int(rng.next() % 4)]
            let action: Action = room.isSolved ? .next : RandomActions.next(for: player, in: room, using: &rng)
            let before = room
            var planned: [RoomEvent] = []
            _ = try? room.plan(action, by: player, at: time, into: &planned)
            #expect(room == before)
            room.apply(planned: planned)
            #expect(room.isSolved == (room.correctCount == room.pieceCount), "after \(action): \(planned)")
            if planned.contains(where: { if case .solved = $0.body { true } else { false } }) { solves += 1 }
        }
        #expect(solves > 0)
    }

    @Test(arguments: [PuzzleKind.swap, .jigsaw])
    func hundredThousandRandomActionsKeepEveryPieceOnceAndReplayExactly(kind: PuzzleKind) throws {
        let spec = try PuzzleSpec(kind: kind, rows: 20, cols: 20, rotation: kind == .jigsaw)
        let settings = RoomSettings(first: spec, leaseMillis: 2_000, maxHeld: 2, seed: 2026)
        var room = RoomState(settings: settings)
        var rng = SeededGenerator(seed: 99)
        var log: [RoomEvent] = []
        var time: Int64 = 0
        let players = (1...8).map(PlayerID.init)
        for p in players { try room.perform(.join(name: "p\(p.rawValue)"), by: p, at: time, into: &log) }
        var refused = 0, solves = 0
        for step in 0..<100_000 {
            time += Int64(rng.next() % 40)
            room.expireLeases(at: time, into: &log)
            let player = players[Int(rng.next() % 8)]
            let action = RandomActions.next(for: player, in: room, using: &rng)
            do {
                try room.perform(action, by: player, at: time, into: &log)
            } catch {
                refused += 1
            }
            if room.isSolved {
                solves += 1
                try room.perform(.next, by: player, at: time, into: &log)
            }
            guard room.checkInvariants() else {
                Issue.record("invariants broken at step \(step) after \(action)")
                return
            }
        }
        #expect(refused > 1_000 && refused < 90_000)
        var replay = RoomState(settings: settings)
        for event in log { try replay.apply(event) }
        #expect(replay.digest == room.digest)
        #expect(replay == room)
    }
}

@Suite struct ReproducibilityTests {
    @Test func sameSeedSameGameDifferentSeedDifferentGame() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 6, cols: 6, rotation: true)
        let a = RoomState(settings: RoomSettings(first: spec, seed: 5))
        let b = RoomState(settings: RoomSettings(first: spec, seed: 5))
        let c = RoomState(settings: RoomSettings(first: spec, seed: 6))
        #expect(a == b && a.digest == b.digest)
        #expect(a.digest != c.digest)
        #expect(a.pieces.allSatisfy { if case .table(let p) = $0.location { return a.geometry.contains(p) && !a.geometry.isOverBoard(p) } else { return false } })
        #expect(Set(a.pieces.map(\.rotation)).count > 1)
    }

    @Test func digestHexRoundTrips() {
        let d = StateDigest(value: 0x00ab_cdef_0123_4567)
        #expect(d.description == "00abcdef01234567")
        #expect(StateDigest(hex: d.description) == d)
    }
}
