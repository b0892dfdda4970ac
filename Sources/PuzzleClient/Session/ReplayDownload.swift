import PuzzleCore
import PuzzleProtocol

/// A replay arriving a page at a time (REPLAY's `more=`): what its pages
/// brought so far, each read by `ReplayCodec.decodePage`.
struct ReplayDownload: Sendable {
    let puzzle: Int
    /// The start and the moves so far (nil until the first page).
    private(set) var replay: PuzzleReplay?
    /// The moves the whole replay has, as its start says.
    private(set) var totalMoves = 0
    /// The puzzle's picture, from the first page.
    private(set) var picture: Picture?

    init(puzzle: Int) {
        self.puzzle = puzzle
    }

    /// Takes the next page: the first brings the start (and the picture),
    /// each brings moves, never more in all than the start said.
    mutating func take(_ page: ReplayCodec.Page) throws(ReplayCodec.PageError) {
        if let start = page.start {
            guard replay == nil else { throw .startAgain }
            replay = start
            totalMoves = page.totalMoves ?? 0
            picture = page.picture
        }
        guard replay != nil else { throw .missingStart }
        guard replay!.moves.count + page.moves.count <= min(totalMoves, PuzzleReplay.maxMoves) else { throw .tooManyMoves }
        replay!.moves += page.moves
    }

    /// The replay, once its last page is in.
    func finish() throws(ReplayCodec.PageError) -> PuzzleReplay {
        guard let replay else { throw .missingStart }
        return replay
    }
}
