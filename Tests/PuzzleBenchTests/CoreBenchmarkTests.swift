import PuzzleCore
import Testing
@testable import PuzzleBench

@Suite struct CoreBenchmarkTests {
    @Test(arguments: [PuzzleKind.jigsaw, .swap])
    func cyclesGrabDragAndDropOnEveryKind(kind: PuzzleKind) throws {
        let r = try CoreBenchmark(kind: kind, size: 6, players: 4, steps: 3).run(seconds: 0.05)
        #expect(r.grabs > 0)
        #expect(r.drags == r.grabs * 3 || r.refused > 0)
        // A small board is solved again and again; every grab ends in a drop
        // except those cut short by a solve.
        #expect(r.solves > 0)
        #expect(r.drops + r.refused >= r.grabs)
        #expect(r.dragsPerSecond > 0 && r.grabsPerSecond > 0 && r.dropsPerSecond > 0)
    }

    @Test func pathsEndExactlyHome() {
        let path = CoreBenchmark.path(from: Point(x: 3, y: 50), to: Point(x: 40, y: 8), steps: 8)
        #expect(path.count == 8)
        #expect(path.last == Point(x: 40, y: 8))
        #expect(path.first != Point(x: 3, y: 50))
    }
}

/// The big-parts cases of `puzzle bench --core` on a small board: each
/// operation does what it is timed for (the benchmark checks it and throws
/// otherwise), and the rooms it times on are sound.
@Suite struct PartBenchmarkTests {
    @Test func timesMergesGrabsDragsAndDropsOfBigParts() throws {
        let bench = PartBenchmark(size: 10, seed: 4)
        let r = try bench.run(drops: 3, steps: 5)
        #expect(r.partPieces == 25)
        #expect(r.mergeDrop.samples == 3 && r.dropIntoBoard.samples == 3 && r.grab.samples == 5 && r.dragStepOverCells.samples == 5)
        for t in [r.mergeDrop, r.grab, r.dragStep, r.dragStepOverCells, r.dropIntoBoard] {
            #expect(t.minNanos <= t.medianNanos && t.medianNanos <= t.maxNanos)
        }
        let two = try bench.room(joined: false), one = try bench.room(joined: true)
        #expect(two.parts.members.count == 2 && two.parts.size(with: 0) == 25 && two.parts.size(with: 5) == 25)
        #expect(one.parts.members.count == 1 && one.parts.size(with: 0) == 50)
        #expect(EndChecks.partProblem(two, room: "t") == nil && EndChecks.partProblem(one, room: "t") == nil)
        #expect(throws: BenchFailure.self) { try PartBenchmark(size: 9).run(drops: 1, steps: 1) }
    }
}
