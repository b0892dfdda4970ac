/// How far a room has got with its current puzzle.
public struct Progress: Hashable, Sendable {
    public var puzzle: Int
    public var correct: Int
    public var total: Int
    public var elapsedMillis: Int64
    /// Time from start to solve, once solved.
    public var solveMillis: Int64?
    public var movesByPlayer: [PlayerID: Int]

    public var percent: Int { total == 0 ? 0 : correct * 100 / total }
}

extension RoomState {
    /// Progress at room clock `now`.
    public func progress(at now: Int64) -> Progress {
        Progress(puzzle: puzzleIndex, correct: correctCount, total: pieces.count,
                 elapsedMillis: elapsed(at: now),
                 solveMillis: solveMillis,
                 movesByPlayer: players.mapValues(\.moves))
    }
}
