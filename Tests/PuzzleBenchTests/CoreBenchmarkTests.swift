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
