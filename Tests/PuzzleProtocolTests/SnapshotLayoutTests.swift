import PuzzleCore
import Testing
@testable import PuzzleProtocol

/// `S table` and `S edges`: what a client needs to draw the table and every
/// piece's outline without a copy of the core, checked against the core.
@Suite struct SnapshotLayoutTests {
    /// Rebuilds a piece's four edges (top, right, bottom, left) from the
    /// wire's strings the way PROTOCOL.md says a client does.
    private func edges(piece: Int, rows: Int, cols: Int, right: [Character], bottom: [Character]) -> [Edge] {
        let r = piece / cols, c = piece % cols
        func edge(_ ch: Character) -> Edge { ch == "t" ? .tab : .blank }
        func rightOf(_ r: Int, _ c: Int) -> Edge { edge(right[r * (cols - 1) + c]) }
        func bottomOf(_ r: Int, _ c: Int) -> Edge { edge(bottom[r * cols + c]) }
        return [
            r == 0 ? .flat : bottomOf(r - 1, c).complement,
            c == cols - 1 ? .flat : rightOf(r, c),
            r == rows - 1 ? .flat : bottomOf(r, c),
            c == 0 ? .flat : rightOf(r, c - 1).complement,
        ]
    }

    @Test(arguments: [(2, 2), (3, 5), (6, 6), (7, 3), (30, 30)])
    func layoutLinesMatchTheCore(rows: Int, cols: Int) throws {
        for seed: UInt64 in [1, 2, 99] {
            let game = try RandomGame(kind: .jigsaw, rows: rows, cols: cols, players: 2, maxHeld: 1, seed: seed)
            let st = game.room
            let lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0, layout: true)
            let table = try #require(lines.first { $0.hasPrefix("S table ") }).split(separator: " ").dropFirst(2).map { Int($0)! }
            let g = st.geometry
            #expect(table == [g.width, g.height, g.boardOrigin.x, g.boardOrigin.y])
            // The table holds every loose piece; the board fits inside it.
            for piece in st.pieces { if case .table(let p) = piece.location { #expect(p.x >= 0 && p.y >= 0 && p.x <= table[0] - 4 && p.y <= table[1] - 4) } }
            #expect(table[2] + 4 * cols <= table[0] && table[3] + 4 * rows <= table[1])
            let words = try #require(lines.first { $0.hasPrefix("S edges ") }).split(separator: " ")
            #expect(words.count == 4)
            let right = Array(words[2]), bottom = Array(words[3])
            #expect(right.count == rows * (cols - 1) && bottom.count == (rows - 1) * cols)
            #expect((right + bottom).allSatisfy { $0 == "t" || $0 == "b" })
            for piece in 0..<rows * cols {
                #expect(edges(piece: piece, rows: rows, cols: cols, right: right, bottom: bottom) == st.cut.edges(piece: piece, rotation: 0), "piece \(piece)")
            }
            // Readers that do not know the lines skip them: the room decodes the same.
            let decoded = try SnapshotCodec.decode(lines.map { $0[...] }, now: 0)
            #expect(decoded.state.pieces == st.pieces)
        }
    }

    @Test func swapBoardsHaveATableAndNoEdges() throws {
        let game = try RandomGame(kind: .swap, rows: 3, cols: 4, players: 1, maxHeld: 1, seed: 3)
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "s", state: game.room, picture: nil), now: 0, layout: true)
        #expect(lines.contains("S table 16 12 0 0"))
        #expect(!lines.contains { $0.hasPrefix("S edges") })
        // Not on disk, not in version 1: only when asked.
        #expect(!SnapshotCodec.lines(RoomSnapshot(name: "s", state: game.room, picture: nil), now: 0).contains { $0.hasPrefix("S table") })
    }
}
