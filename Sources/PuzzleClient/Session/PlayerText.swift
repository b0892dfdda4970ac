import PuzzleCore
import PuzzleProtocol

/// How the session's listings and numbers read to a player: a ROOMS or WHO
/// line, a solved puzzle's entry, the board as text, a duration, a file's
/// size. Pure text from values, so plain mode, the full screen's windows and
/// the replay view say things the same way; it keeps no state.
enum PlayerText {
    /// A ROOMS or WHO line as a player reads it (see `roomChoice` and
    /// `playerEntry`); a line that is neither is shown as sent, without its `S `.
    static func listingEntry(_ line: String) -> String {
        switch StateRecordCodec.decode(Substring(line)) {
        case .room(let listed)?: roomChoice(listed)
        case .whoPlayer(let id, let name, let moves, let holding)?: playerEntry(id: id, name: name, moves: moves, holding: holding)
        case .whoWatcher(let id, let name)?: "\(name) (#\(id.rawValue))  watching"
        default: String(line.dropFirst(2))
        }
    }

    /// A room as a player reads it: `S room lobby kind=jigsaw size=4x4
    /// rotation=off players=2 password=no puzzle=0 progress=3/16` becomes
    /// `lobby  jigsaw 4x4  2 players  3/16 placed` (with `rotation`, seats,
    /// watchers, `password` and `solved` said only when they apply).
    static func roomChoice(_ r: RoomListing) -> String {
        var parts = [r.name, "\(r.kind.rawValue) \(r.rows)x\(r.cols)"]
        if r.rotation { parts.append("rotation") }
        parts.append("\(r.players)\(r.seats.map { "/\($0)" } ?? "") player\(r.players == 1 ? "" : "s")")
        parts.append("\(r.correct)/\(r.total) placed")
        if r.watchers != 0 { parts.append("\(r.watchers) watching") }
        if r.solved { parts.append("solved") }
        if r.password { parts.append("password") }
        return parts.joined(separator: "  ")
    }

    /// A player as WHO lists it, as a player reads it: `S who 3 carol
    /// moves=12 holding=5,9` becomes `carol (#3)  12 moves  holds pieces 5, 9`
    /// (`1 move`, nothing said of holds when there are none).
    static func playerEntry(id: PlayerID, name: String, moves: Int, holding: [Int]) -> String {
        var parts = ["\(name) (#\(id.rawValue))", "\(moves) move\(moves == 1 ? "" : "s")"]
        if !holding.isEmpty {
            parts.append("holds piece\(holding.count == 1 ? "" : "s") \(holding.map(String.init).joined(separator: ", "))")
        }
        return parts.joined(separator: "  ")
    }

    /// A solved puzzle as `/history` lists it: `puzzle 0  jigsaw 2x2  0:08  5 moves; placed: alice 3, bob 2`.
    static func historyEntry(_ s: PuzzleReplay) -> String {
        "puzzle \(s.puzzle)  \(s.spec.kind.rawValue) \(s.spec.rows)x\(s.spec.cols)  \(clock(s.solvedMillis ?? 0))  \(statsText(s))"
    }

    /// "5 moves; placed: alice 3, bob 2".
    static func statsText(_ s: PuzzleReplay) -> String {
        let placed = s.players.sorted { $0.placed > $1.placed }.map { "\($0.name) \($0.placed)" }.joined(separator: ", ")
        return "\(s.moveCount) move\(s.moveCount == 1 ? "" : "s")" + (placed.isEmpty ? "" : "; placed: \(placed)")
    }

    /// The board as text: which piece lies in each cell, the loose pieces, the holds.
    static func boardLines(_ st: RoomState, names: (PlayerID) -> String) -> [String] {
        let p = st.progress(at: 0)
        var lines = ["board: puzzle \(st.puzzleIndex) \(st.spec.kind.rawValue) \(st.spec.rows)x\(st.spec.cols), \(p.correct)/\(p.total) placed"]
        for r in 0..<st.spec.rows {
            let cells = (0..<st.spec.cols).map { c in st.occupant(of: Cell(row: r, col: c)).map(String.init) ?? "." }
            lines.append("row \(r): " + cells.joined(separator: " "))
        }
        let loose = st.pieces.enumerated().compactMap { i, s -> String? in
            if case .table(let pt) = s.location { return "\(i)@\(pt.x),\(pt.y)" }
            return nil
        }
        if !loose.isEmpty { lines.append("table: " + loose.joined(separator: " ")) }
        for (piece, lock) in st.locks.sorted(by: { $0.key < $1.key }) {
            lines.append("held: \(piece) by \(names(lock.holder)) at \(lock.point.x),\(lock.point.y) → \(lock.target.map { "cell \($0.row),\($0.col)" } ?? "no target")")
        }
        return lines
    }

    /// "puzzle 0 solved in 12.3 s".
    static func solved(puzzle: Int, millis: Int64) -> String {
        "puzzle \(puzzle) solved in \(seconds(millis)) s"
    }

    /// Milliseconds as seconds with one decimal: 12345 → "12.3".
    static func seconds(_ ms: Int64) -> String {
        let tenths = max(0, ms) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Play time as `m:ss`.
    static func clock(_ ms: Int64) -> String {
        let seconds = max(0, ms) / 1000
        return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
    }

    /// A byte count as people read it: `812 bytes`, `34 KB`, `3.4 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(bytes / 1000) KB" }
        let tenths = bytes / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
