import Testing
@testable import PuzzleCore

/// PROTOCOL.md, *Table layout*: the margins are the best pair over every
/// rows margin, and the search may stop at the first rows margin whose
/// height alone scores worse than the best so far.
@Suite struct TableMarginsTests {
    /// The rule as written, with no early stop: every rows margin up to `limit`.
    static func bruteForce(rows: Int, cols: Int, limit: Int = 80) -> (rows: Int, columns: Int) {
        var best: (score: Int, rows: Int, columns: Int)?
        for m in 1...limit {
            var c = m
            while TableSlots.count(in: TableGeometry(rows: rows, cols: cols, marginRows: m, marginColumns: c)) < rows * cols { c += 1 }
            let score = max(4 * (cols + 2 * c), 7 * (rows + 2 * m))
            if score < best?.score ?? Int.max { best = (score, m, c) }
        }
        return (best!.rows, best!.columns)
    }

    @Test func theDocumentedExamples() {
        #expect(TableSlots.margins(rows: 3, cols: 3) == (1, 3))
        #expect(TableSlots.margins(rows: 10, cols: 10) == (2, 6))
        #expect(TableSlots.margins(rows: 100, cols: 100) == (11, 57))
    }

    @Test func stoppingEarlyFindsWhatTheWholeSearchFinds() {
        let sizes = [2, 3, 4, 5, 7, 10, 13, 20, 31, 50, 100]
        for rows in sizes {
            for cols in sizes {
                let found = TableSlots.margins(rows: rows, cols: cols)
                let all = Self.bruteForce(rows: rows, cols: cols)
                #expect(found == all, "\(rows)x\(cols): \(found) but the whole search gives \(all)")
            }
        }
    }
}
