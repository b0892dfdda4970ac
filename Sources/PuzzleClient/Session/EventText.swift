import PuzzleCore
import PuzzleProtocol

/// How a room event reads to a player: `bob grabbed piece 3`, `alice placed
/// piece 5 in cell 1,1: row 1 complete`, `*** puzzle 0 solved in 12.3 s ***`.
/// Pure text from the event and the room around it, beside `PlayerText`;
/// it keeps no state (names and this player's id are handed in), so the
/// session's `+Events` only applies events to the mirror.
enum EventText {
    /// The line for `body`; `st` is the room as it was before the event (a
    /// swap names the cells its pieces left), `time` when it happened,
    /// `me` this player (its own lapsed hold is told to it as such).
    static func line(_ body: EventBody, time: Int64, before st: RoomState?, me: PlayerID?, names n: (PlayerID) -> String) -> String {
        func target(_ t: Cell?) -> String { t.map { "cell \($0.row),\($0.col)" } ?? "no target" }
        // A piece of a part carries the part: say how big it is.
        func what(_ p: Int) -> String {
            guard let st, st.pieces.indices.contains(p) else { return "piece \(p)" }
            let size = st.parts.size(with: p)
            return size > 1 ? "piece \(p) and its part of \(size)" : "piece \(p)"
        }
        switch body {
        case .joined(let id, let name, _): return "\(name) (#\(id.rawValue)) joined"
        case .left(let id): return "\(n(id)) (#\(id.rawValue)) left"
        case .grabbed(let p, let id): return "\(n(id)) grabbed piece \(p)"
        case .dragged(let p, let id, let to, let t): return "\(n(id)) dragged piece \(p) to \(to.x),\(to.y) → \(target(t))"
        case .rotated(let p, let id, let r, let t): return "\(n(id)) rotated piece \(p) to \(r * 90)° → \(target(t))"
        case .placed(let p, let id, .board(let c), _): return "\(n(id)) placed \(what(p)) in cell \(c.row),\(c.col)"
        case .placed(let p, let id, .table(let pt), _): return "\(n(id)) put \(what(p)) on the table at \(pt.x),\(pt.y)"
        case .merged(let p, let o, let id): return "\(n(id)) joined piece \(p) to piece \(o)"
        case .swapped(let p, let o, let id):
            // The cells come from the mirror, and a network event may name pieces it does not have.
            if let st, p != o, st.pieces.indices.contains(p), st.pieces.indices.contains(o),
               let a = st.pieces[p].location.cell, let b = st.pieces[o].location.cell {
                return "\(n(id)) swapped piece \(p) into cell \(b.row),\(b.col) (piece \(o) to cell \(a.row),\(a.col))"
            }
            return "\(n(id)) swapped piece \(p) with piece \(o)"
        case .returned(let p, let id, .released): return "\(n(id)) released piece \(p)"
        case .returned(let p, let id, .expired) where id == me:
            let lease = st.map { " \(PlayerText.seconds($0.settings.leaseMillis)) s" } ?? ""
            return "your piece \(p) went back: held\(lease) without a move"
        case .returned(let p, let id, .expired): return "\(n(id))'s hold on piece \(p) expired"
        case .returned(let p, let id, .left): return "piece \(p) went back (\(n(id)) left)"
        case .returned(let p, _, .noTarget): return "piece \(p) went back (no target)"
        case .solved(let puzzle, let ms): return "*** \(PlayerText.solved(puzzle: puzzle, millis: ms)) ***"
        case .nextPuzzle(let i, let s):
            return "next puzzle \(i): \(s.kind.rawValue) \(s.rows)x\(s.cols), rotation \(s.rotation ? "on" : "off"), picture \(s.picture)"
        case .hint(let id, let until):
            return "\(n(id)) is looking at the hint for \(PlayerText.seconds(until - time)) s"
        case .forgotten(let id): return "\(n(id)) (#\(id.rawValue)) was away too long and is forgotten"
        }
    }

    /// An event's line with the board lines its drop made whole:
    /// `...: row 3 and column 0 complete` (the line as it was when none).
    static func line(_ text: String, completing lines: [String]) -> String {
        lines.isEmpty ? text : text + ": " + lines.joined(separator: " and ") + " complete"
    }

    /// The board rows and columns a drop made whole and right ("row 3", "column 0"), for the
    /// line that tells it: what a player reads about others' moves, which the table shows.
    /// `st` is the room after the drop. A solve is told by its own event.
    static func completedLines(by body: EventBody, in st: RoomState) -> [String] {
        let pieces: [Int]
        switch body {
        case .placed(let p, _, .board, _): pieces = [p]
        case .swapped(let p, let o, _): pieces = [p, o]
        default: return []
        }
        guard st.solveMillis == nil else { return [] }
        let cols = st.spec.cols, rows = st.spec.rows
        var lines: [String] = []
        for p in pieces where p >= 0 && p < st.pieceCount && st.isCorrect(p) {
            let row = p / cols, col = p % cols
            if !lines.contains("row \(row)"), (0..<cols).allSatisfy({ st.isCorrect(row * cols + $0) }) { lines.append("row \(row)") }
            if !lines.contains("column \(col)"), (0..<rows).allSatisfy({ st.isCorrect($0 * cols + col) }) { lines.append("column \(col)") }
        }
        return lines
    }

    /// How the line is listed: drags apart (frequent; the full screen leaves them out).
    static func kind(of body: EventBody) -> OutputLine.Kind {
        if case .dragged = body { return .drag }
        return .event
    }
}
