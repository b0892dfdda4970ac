/// The starting layout of one puzzle, built deterministically from a room seed
/// and the puzzle's index in the room's sequence.
struct PuzzleLayout {
    let geometry: TableGeometry
    let cut: JigsawCut
    let pieces: [PieceState]
    let occupant: [Int32]

    init(spec: PuzzleSpec, seed: UInt64, index: Int) {
        var rng = SeededGenerator(seed: SeededGenerator.derive(seed, UInt64(index)))
        let g = spec.geometry
        geometry = g
        cut = JigsawCut(rows: spec.rows, cols: spec.cols, using: &rng)
        let n = spec.pieceCount
        var occupant = [Int32](repeating: -1, count: n)
        var pieces: [PieceState] = []
        pieces.reserveCapacity(n)
        switch spec.kind {
        case .swap:
            var order = Array(0..<n)
            // A shuffled board must never start solved.
            repeat { order.shuffle(using: &rng) } while order.elementsEqual(0..<n)
            for piece in 0..<n {
                let cellIndex = order[piece]
                occupant[cellIndex] = Int32(piece)
                pieces.append(PieceState(location: .board(g.cell(at: cellIndex))))
            }
        case .jigsaw:
            for _ in 0..<n {
                var p: Point
                // Rejection sampling: the margin ring is three quarters of the table.
                repeat {
                    p = Point(x: Int(rng.next() % UInt64(g.width - g.unit + 1)),
                              y: Int(rng.next() % UInt64(g.height - g.unit + 1)))
                } while g.isOverBoard(p)
                let rotation = spec.rotation ? Int(rng.next() % 4) : 0
                pieces.append(PieceState(location: .table(p), rotation: rotation))
            }
        }
        self.pieces = pieces
        self.occupant = occupant
    }
}
