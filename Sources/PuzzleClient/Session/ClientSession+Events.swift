import PuzzleCore
import PuzzleProtocol

/// Events: mirrored into the room state and told as readable lines.
extension ClientSession {
    mutating func handleEvent(_ line: Substring, now: Int64) {
        guard let event = EventCodec.decode(line, now: now) else {
            emit(.info, "unreadable event: \(line.prefix(120))")
            return
        }
        switch event {
        case .say(_, let player, let text):
            emit(.chat, "<\(displayName(player))> \(text)", about: .chat(from: player, words: text))
        case .watching(_, let player, let name):
            roster.startedWatching(player, name: name)
            if player != myID { emit(.info, "\(name) is watching") }
        case .unwatching(_, let player):
            if let name = roster.stoppedWatching(player), player != myID { emit(.info, "\(name) stopped watching") }
        case .room(let e):
            if case .joined(let id, let name) = e.body { roster.met(id, name: name) }
            let told = tellsDrags || kind(of: e.body) != .drag
            guard let seq = state?.seq, !syncing else {
                if told { emit(kind(of: e.body), describe(e.body, time: e.time, in: state), about: .event(e.body, completes: false)) }
                return
            }
            if e.body.isSequenced && e.seq <= seq { return }  // already in the snapshot
            // Said with the room as it was before the event (a swap names the cells the pieces left).
            let text = told ? describe(e.body, time: e.time, in: state) : ""
            // A solve ends every hold (PROTOCOL: after `solved` all holds are gone):
            // a player still holding a piece is told, not left wondering why it went.
            let heldBeforeSolve: [Int] = if case .solved = e.body, let me = myID { state?.players[me]?.holding ?? [] } else { [] }
            let pictureBefore = state?.spec.picture
            // The mirror changes in place: a copy of it changed and stored back
            // would copy its arrays (10,000 pieces) on every drag.
            // (`apply` changes nothing when it throws.)
            guard Self.isApplicable(e.body, to: mirror!.state), (try? mirror!.state.apply(e)) != nil else {
                // Not applicable, or a gap: something was missed. Say what arrived, then reload.
                if told { emit(kind(of: e.body), text, about: .event(e.body, completes: false)) }
                requestSync(now: now)
                return
            }
            if told {
                let completed = Self.completedLines(by: e.body, in: mirror!.state)
                emit(kind(of: e.body), text + (completed.isEmpty ? "" : ": " + completed.joined(separator: " and ") + " complete"),
                     about: .event(e.body, completes: !completed.isEmpty))
            }
            if let me = myID { hand.observe(e.body, me: me) }
            switch e.body {
            case .solved(let puzzle, let ms):
                solvedBanner = PlayerText.solved(puzzle: puzzle, millis: ms)
                // The banner's numbers (moves, who placed what) are the server's: asked for.
                requestSolvedStats(puzzle, now: now)
                for piece in heldBeforeSolve { emit(.info, "your piece \(piece) went back: the puzzle is solved") }
            case .nextPuzzle(_, let spec):
                solvedBanner = nil; replays.tableChanged(solvedPuzzle: nil, sameRoom: true); hand.restartTab()
                // Another picture (a room cycles them): its pixels come with a snapshot.
                if spec.picture != pictureBefore { requestSync(now: now) }
            default: break
            }
        }
    }

    mutating func requestSync(now: Int64) {
        guard !syncing, phase == .joined else { return }
        syncing = true
        send(.sync, fromUser: false, now: now)
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

    func kind(of body: EventBody) -> OutputLine.Kind {
        if case .dragged = body { return .drag }
        return .event
    }

    /// Whether applying `body` is safe: every piece and cell it names exists.
    /// (The core trusts its events; these come from the network.)
    static func isApplicable(_ body: EventBody, to st: RoomState) -> Bool {
        func piece(_ p: Int) -> Bool { p >= 0 && p < st.pieceCount }
        func cell(_ c: Cell?) -> Bool { c.map(st.geometry.isOnBoard) ?? true }
        switch body {
        case .joined, .left, .solved, .nextPuzzle, .hint, .forgotten: return true
        case .grabbed(let p, _), .returned(let p, _, _): return piece(p)
        case .dragged(let p, _, _, let t): return piece(p) && cell(t)
        case .rotated(let p, _, let r, let t): return piece(p) && (0...3).contains(r) && cell(t)
        case .placed(let p, _, let at, let r):
            guard piece(p), (0...3).contains(r) else { return false }
            if case .board(let c) = at { return cell(c) }
            return true
        case .swapped(let p, let o, _): return piece(p) && piece(o) && p != o
        }
    }

    /// The readable line for an event, using the mirror as it was before it.
    func describe(_ body: EventBody, time: Int64, in st: RoomState?) -> String {
        func n(_ id: PlayerID) -> String { displayName(id) }
        func target(_ t: Cell?) -> String { t.map { "cell \($0.row),\($0.col)" } ?? "no target" }
        switch body {
        case .joined(let id, let name): return "\(name) (#\(id.rawValue)) joined"
        case .left(let id): return "\(n(id)) (#\(id.rawValue)) left"
        case .grabbed(let p, let id): return "\(n(id)) grabbed piece \(p)"
        case .dragged(let p, let id, let to, let t): return "\(n(id)) dragged piece \(p) to \(to.x),\(to.y) → \(target(t))"
        case .rotated(let p, let id, let r, let t): return "\(n(id)) rotated piece \(p) to \(r * 90)° → \(target(t))"
        case .placed(let p, let id, .board(let c), _): return "\(n(id)) placed piece \(p) in cell \(c.row),\(c.col)"
        case .placed(let p, let id, .table(let pt), _): return "\(n(id)) put piece \(p) on the table at \(pt.x),\(pt.y)"
        case .swapped(let p, let o, let id):
            if let st, Self.isApplicable(body, to: st), let a = st.pieces[p].location.cell, let b = st.pieces[o].location.cell {
                return "\(n(id)) swapped piece \(p) into cell \(b.row),\(b.col) (piece \(o) to cell \(a.row),\(a.col))"
            }
            return "\(n(id)) swapped piece \(p) with piece \(o)"
        case .returned(let p, let id, .released): return "\(n(id)) released piece \(p)"
        case .returned(let p, let id, .expired) where id == myID:
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
}
