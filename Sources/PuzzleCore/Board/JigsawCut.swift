/// The shapes of every piece of a jigsaw: which edges are flat, tabs or blanks.
///
/// Outer edges are flat, inner edges never are, and the two pieces that share an
/// inner edge get complementary edges (a tab meets a blank). Which side gets the
/// tab is random per seed.
public struct JigsawCut: Hashable, Sendable {
    public let rows: Int
    public let cols: Int
    /// For piece (r, c) with c < cols-1: its right edge (the neighbour's left edge is the complement).
    private var rightEdges: [Edge]
    /// For piece (r, c) with r < rows-1: its bottom edge.
    private var bottomEdges: [Edge]

    public init(rows: Int, cols: Int, using rng: inout SeededGenerator) {
        self.rows = rows
        self.cols = cols
        rightEdges = [Edge](repeating: .flat, count: rows * cols)
        bottomEdges = [Edge](repeating: .flat, count: rows * cols)
        for r in 0..<rows {
            for c in 0..<cols {
                let i = r * cols + c
                if c < cols - 1 { rightEdges[i] = rng.next() & 1 == 0 ? .tab : .blank }
                if r < rows - 1 { bottomEdges[i] = rng.next() & 1 == 0 ? .tab : .blank }
            }
        }
    }

    /// The edge of the piece whose home is (row, col) on `side`, at rotation 0.
    @inline(__always)
    public func baseEdge(row: Int, col: Int, side: Side) -> Edge {
        switch side {
        case .top: return row == 0 ? .flat : bottomEdges[(row - 1) * cols + col].complement
        case .bottom: return row == rows - 1 ? .flat : bottomEdges[row * cols + col]
        case .left: return col == 0 ? .flat : rightEdges[row * cols + col - 1].complement
        case .right: return col == cols - 1 ? .flat : rightEdges[row * cols + col]
        }
    }

    /// The edge a piece shows on `side` when turned clockwise by `rotation` quarter turns.
    @inline(__always)
    public func edge(piece: Int, side: Side, rotation: Int) -> Edge {
        let from = Side(rawValue: (side.rawValue - rotation + 8) & 3)!
        return baseEdge(row: piece / cols, col: piece % cols, side: from)
    }

    /// All four edges of a piece at a rotation, clockwise from the top.
    public func edges(piece: Int, rotation: Int) -> [Edge] {
        Side.allCases.map { edge(piece: piece, side: $0, rotation: rotation) }
    }
}
