import PuzzleProtocol

/// A replay arriving a page at a time (REPLAY's `more=`): what its pages
/// brought so far.
struct ReplayDownload: Sendable {
    let puzzle: Int
    var reader = ReplayCodec.Reader()
    var pictureSize: (Int, Int)?
    var pictureRows: [String] = []

    init(puzzle: Int) {
        self.puzzle = puzzle
    }
}
