import PuzzleCore
import PuzzleProtocol

/// Solved puzzles on the client: `/history`, `/replay` and the solved
/// banner's numbers. It owns the replay coming a page at a time, the one
/// fetched until the full screen takes it, the speed it was asked at, the
/// latest solved puzzle a `HISTORY` reply listed (what `/replay` alone means
/// when the table is not solved), and the solved puzzle's numbers (its
/// HISTORY entry) once the server said them; it answers commands and replies
/// with the lines and requests for the session to apply (`SessionEffects`).
struct ReplayFetch: Sendable {
    /// A replay the server sent, until the full screen takes it.
    private(set) var loaded: LoadedReplay?
    /// The speed asked for with the replay on its way.
    private(set) var speed: Int?
    /// The pages in so far (REPLAY's `more=`), until the last.
    private(set) var download: ReplayDownload?
    /// The latest solved puzzle a HISTORY reply listed.
    private(set) var latestListedSolve: Int?
    /// The solved puzzle's numbers for the banner (moves, who placed what),
    /// once the server said them; nil while the table is not solved.
    private(set) var solvedStats: PuzzleReplay?

    /// What a page led to.
    enum Progress: Equatable, Sendable {
        /// More pages come: the next starts at this move.
        case more(from: Int)
        /// The last page: the replay is whole (and kept until taken).
        case loaded(LoadedReplay)
    }

    /// `/replay` at `speed`: a fetch starts (pages of an earlier one are dropped).
    mutating func ask(speed: Int?) {
        self.speed = speed
        download = nil
    }

    /// One REPLAY page of `puzzle` (its `S` lines); `more`: where the next page starts.
    /// A page that does not read ends the fetch.
    mutating func take(page lines: [String], puzzle: Int, more: Int?) throws(ReplayCodec.PageError) -> Progress {
        var pages = download.flatMap { $0.puzzle == puzzle ? $0 : nil } ?? ReplayDownload(puzzle: puzzle)
        download = nil
        try pages.take(ReplayCodec.decodePage(lines))
        if let more {
            download = pages
            return .more(from: more)
        }
        let whole = LoadedReplay(replay: try pages.finish(), picture: pages.picture, speed: speed)
        speed = nil
        loaded = whole
        return .loaded(whole)
    }

    /// The replay fetched, once (the full screen plays it).
    mutating func takeLoaded() -> LoadedReplay? {
        defer { loaded = nil }
        return loaded
    }

    /// The solved puzzles a HISTORY reply listed, oldest first.
    mutating func listed(_ solved: [PuzzleReplay]) {
        if let last = solved.last?.puzzle { latestListedSolve = max(latestListedSolve ?? last, last) }
    }

    /// The puzzle `/replay` without a number means: the solved one on the
    /// table, else the latest one the room listed.
    func latestSolvedPuzzle(in state: RoomState?) -> Int? {
        if let state, state.isSolved { return state.puzzleIndex }
        return latestListedSolve
    }

    // MARK: The conversation

    /// `/replay [puzzle] [speed]`: asks for the puzzle's replay (the solved
    /// one on `table`, else the latest listed, when none is named).
    mutating func command(puzzle: Int?, speed: Int?, table: RoomState?) -> SessionEffects {
        var effects = SessionEffects()
        guard let target = puzzle ?? latestSolvedPuzzle(in: table) else {
            effects.refuse("no puzzle solved here yet (/history lists the solved ones)")
            return effects
        }
        ask(speed: speed)
        effects.send(.replay(target), fromUser: true)
        return effects
    }

    /// Whether the banner's numbers of solved puzzle `puzzle` are still to be asked for.
    func needsStats(of puzzle: Int) -> Bool {
        solvedStats?.puzzle != puzzle
    }

    /// The table changed (a snapshot, a new puzzle): the numbers kept stay only
    /// while they are this room's (`sameRoom`) solved puzzle (`solvedPuzzle`).
    mutating func tableChanged(solvedPuzzle: Int?, sameRoom: Bool) {
        if !sameRoom || solvedStats?.puzzle != solvedPuzzle { solvedStats = nil }
    }

    /// A HISTORY reply (its `S` lines; `text`: the reply after its `OK`):
    /// the banner's numbers of `puzzle` when the client asked (kept while
    /// `table` is that solved puzzle), or the player's `/history` listing.
    mutating func history(_ lines: [String], puzzle: Int?, text: String, fromUser: Bool, table: RoomState?) -> SessionEffects {
        var effects = SessionEffects()
        let solved = ReplayCodec.decodeHistory(lines)
        listed(solved)
        if !fromUser, let puzzle, let stats = solved.first(where: { $0.puzzle == puzzle }) {
            guard table?.puzzleIndex == puzzle, table?.isSolved == true else { return effects }
            solvedStats = stats
            effects.say(.info, "puzzle \(puzzle): \(PlayerText.statsText(stats)); /replay \(puzzle) watches it again")
            return effects
        }
        guard fromUser else { return effects }
        if solved.isEmpty {
            effects.say(.reply, "no solved puzzle kept here yet", about: .listing(.entry("no solved puzzle kept here yet")))
        }
        for s in solved {
            let entry = PlayerText.historyEntry(s)
            effects.say(.reply, "  " + entry, about: .listing(.entry(entry)))
        }
        effects.say(.reply, "ok: \(text)", about: .listing(.end))
        return effects
    }

    /// A REPLAY reply (one page, its `S` lines): the next page asked for, or,
    /// with the last, the replay and its picture kept for the full screen.
    mutating func page(_ lines: [String], reply: Reply) -> SessionEffects {
        var effects = SessionEffects()
        guard case .replay(let puzzle, _, let more) = reply else { return effects }
        do {
            switch try take(page: lines, puzzle: puzzle, more: more) {
            case .more(let from):
                effects.send(.replay(puzzle, from: from), fromUser: false)
            case .loaded(let loaded):
                let replay = loaded.replay
                let who = replay.players.map(\.name).joined(separator: ", ")
                effects.say(.reply, "replay of puzzle \(replay.puzzle): \(replay.moveCount) move\(replay.moveCount == 1 ? "" : "s") by \(who.isEmpty ? "nobody" : who)")
            }
        } catch {
            effects.say(.error, "error: the replay could not be read (\(error))")
        }
        return effects
    }
}
