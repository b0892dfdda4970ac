import PuzzleCore
import PuzzleProtocol

/// Solved puzzles: the banner's numbers, `/history` and `/replay`.
extension ClientSession {
    /// A replay the server sent since the last call (the full screen plays it).
    public mutating func takeLoadedReplay() -> LoadedReplay? {
        replays.takeLoaded()
    }

    /// Asks for the solved puzzle's numbers (time, moves, who placed what)
    /// for the banner, once per puzzle.
    mutating func requestSolvedStats(_ puzzle: Int, now: Int64) {
        guard solvedStats?.puzzle != puzzle, phase == .joined || phase == .joining else { return }
        if pending.contains(where: { $0.request == .history(puzzle) }) { return }
        send(.history(puzzle), fromUser: false, now: now)
    }

    /// The HISTORY reply: the banner's numbers (asked by the client), or the
    /// player's `/history` listing.
    mutating func handleHistory(_ lines: [String], puzzle: Int?, text: String, fromUser: Bool) {
        let solved = ReplayCodec.decodeHistory(lines)
        replays.listed(solved)
        if !fromUser, let puzzle, let stats = solved.first(where: { $0.puzzle == puzzle }) {
            guard state?.puzzleIndex == puzzle, state?.isSolved == true else { return }
            solvedStats = stats
            emit(.info, "puzzle \(puzzle): \(Self.statsText(stats)); /replay \(puzzle) watches it again")
            return
        }
        guard fromUser else { return }
        if solved.isEmpty {
            emit(.reply, "no solved puzzle kept here yet", about: .listing(.entry("no solved puzzle kept here yet")))
        }
        for s in solved {
            let entry = "puzzle \(s.puzzle)  \(s.spec.kind.rawValue) \(s.spec.rows)x\(s.spec.cols)  \(Self.clock(s.solvedMillis ?? 0))  \(Self.statsText(s))"
            emit(.reply, "  " + entry, about: .listing(.entry(entry)))
        }
        emit(.reply, "ok: \(text)", about: .listing(.end))
    }

    /// A REPLAY reply (one page): the replay and its picture, for the full
    /// screen, once its last page is in; before that, the next page is asked for.
    mutating func handleReplay(_ lines: [String], reply: Reply, now: Int64) {
        guard case .replay(let puzzle, _, let more) = reply else { return }
        do {
            switch try replays.take(page: lines, puzzle: puzzle, more: more) {
            case .more(let from):
                send(.replay(puzzle, from: from), fromUser: false, now: now)
            case .loaded(let loaded):
                let replay = loaded.replay
                let who = replay.players.map(\.name).joined(separator: ", ")
                emit(.reply, "replay of puzzle \(replay.puzzle): \(replay.moveCount) move\(replay.moveCount == 1 ? "" : "s") by \(who.isEmpty ? "nobody" : who)")
            }
        } catch {
            emit(.error, "error: the replay could not be read (\(error))")
        }
    }

    /// "5 moves; placed: alice 3, bob 2".
    static func statsText(_ s: PuzzleReplay) -> String {
        let placed = s.players.sorted { $0.placed > $1.placed }.map { "\($0.name) \($0.placed)" }.joined(separator: ", ")
        return "\(s.moveCount) move\(s.moveCount == 1 ? "" : "s")" + (placed.isEmpty ? "" : "; placed: \(placed)")
    }

    /// Play time as `m:ss`.
    static func clock(_ ms: Int64) -> String {
        let seconds = max(0, ms) / 1000
        return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
    }
}
