import PuzzleCore
import PuzzleProtocol

/// `/replay` on the client: the replay coming a page at a time, the one
/// fetched until the full screen takes it, the speed it was asked at, and the
/// latest solved puzzle a `HISTORY` reply listed (what `/replay` alone means
/// when the table is not solved).
struct ReplayFetch: Sendable {
    /// A replay the server sent, until the full screen takes it.
    private(set) var loaded: LoadedReplay?
    /// The speed asked for with the replay on its way.
    private(set) var speed: Int?
    /// The pages in so far (REPLAY's `more=`), until the last.
    private(set) var download: ReplayDownload?
    /// The latest solved puzzle a HISTORY reply listed.
    private(set) var latestListedSolve: Int?

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
}
