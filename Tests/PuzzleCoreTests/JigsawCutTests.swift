import Testing
@testable import PuzzleCore

@Suite struct JigsawCutTests {
    @Test func outerEdgesFlatInnerNeverFlatNeighboursComplementary() {
        var rng = SeededGenerator(seed: 7)
        let cut = JigsawCut(rows: 6, cols: 9, using: &rng)
        for r in 0..<6 {
            for c in 0..<9 {
                for side in Side.allCases {
                    let e = cut.baseEdge(row: r, col: c, side: side)
                    let (dr, dc) = side.step
                    let nr = r + dr, nc = c + dc
                    if nr < 0 || nc < 0 || nr >= 6 || nc >= 9 {
                        #expect(e == .flat)
                    } else {
                        #expect(e != .flat)
                        #expect(cut.baseEdge(row: nr, col: nc, side: side.opposite) == e.complement)
                    }
                }
            }
        }
    }

    @Test func shapesAreRandomPerSeedAndReproducible() {
        var a = SeededGenerator(seed: 1), a2 = SeededGenerator(seed: 1), b = SeededGenerator(seed: 2)
        let cutA = JigsawCut(rows: 10, cols: 10, using: &a)
        #expect(cutA == JigsawCut(rows: 10, cols: 10, using: &a2))
        #expect(cutA != JigsawCut(rows: 10, cols: 10, using: &b))
        let tabs = (0..<100).filter { cutA.baseEdge(row: $0 / 10, col: $0 % 10, side: .right) == .tab }.count
        #expect(tabs > 20 && tabs < 80)
    }

    @Test func rotationTurnsEdgesClockwise() {
        var rng = SeededGenerator(seed: 3)
        let cut = JigsawCut(rows: 3, cols: 3, using: &rng)
        // Corner (0,0): flat top and left. A quarter turn clockwise moves left to top, top to right.
        #expect(cut.edges(piece: 0, rotation: 0)[0] == .flat && cut.edges(piece: 0, rotation: 0)[3] == .flat)
        let turned = cut.edges(piece: 0, rotation: 1)
        #expect(turned[0] == .flat && turned[1] == .flat && turned[2] != .flat && turned[3] != .flat)
        #expect(cut.edges(piece: 4, rotation: 2) == [2, 3, 0, 1].map { cut.edges(piece: 4, rotation: 0)[$0] })
    }
}
