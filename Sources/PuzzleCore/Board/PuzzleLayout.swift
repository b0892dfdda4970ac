/// The starting layout of one puzzle, built deterministically from a room seed
/// and the puzzle's index in the room's sequence: a swap board shuffled (never
/// solved), or jigsaw pieces dealt to the table's slots (`TableSlots`).
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
            // Dealt in a shuffled order to the slots nearest the board: tidy
            // rings of pieces, none under another, none over the board.
            let slots = TableSlots.slots(in: g)
            var order = Array(0..<n)
            order.shuffle(using: &rng)
            var place = [Point](repeating: Point(x: 0, y: 0), count: n)
            for (k, piece) in order.enumerated() { place[piece] = slots[k] }
            for piece in 0..<n {
                let rotation = spec.rotation ? Int(rng.next() % 4) : 0
                pieces.append(PieceState(location: .table(place[piece]), rotation: rotation))
            }
        }
        self.pieces = pieces
        self.occupant = occupant
    }
}
