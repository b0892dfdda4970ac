/// Everything needed to play one puzzle of a room back: how it started (its
/// number, spec and the room's seed fix the starting layout, see
/// PROTOCOL.md, *Table layout*) and every move in order, with who made it.
///
/// Pure: applying the moves to `startState()` with `state(after:)` gives the
/// board as it was after each one; a solved replay ends on the solved board.
public struct PuzzleReplay: Hashable, Sendable {
    /// Most moves one replay keeps: beyond it, moves are counted
    /// (`truncated`) but not kept, so a replay's size is bounded whatever is
    /// played (a 100x100 board solved in 10 moves a piece fits).
    public static let maxMoves = 100_000

    /// The puzzle's number in the room's sequence.
    public var puzzle: Int
    public var spec: PuzzleSpec
    /// The room's seed: with `puzzle`, it fixes the starting layout.
    public var seed: UInt64
    /// Players who moved, in the order of their first move.
    public var players: [ReplayPlayer]
    public var moves: [ReplayMove]
    /// Play time from the start to the solve, once solved.
    public var solvedMillis: Int64?
    /// Whether moves beyond `maxMoves` were left out (the replay then stops
    /// short of the solved board).
    public var truncated: Bool

    public init(puzzle: Int, spec: PuzzleSpec, seed: UInt64, players: [ReplayPlayer] = [], moves: [ReplayMove] = [],
                solvedMillis: Int64? = nil, truncated: Bool = false) {
        self.puzzle = puzzle
        self.spec = spec
        self.seed = seed
        self.players = players
        self.moves = moves
        self.solvedMillis = solvedMillis
        self.truncated = truncated
    }

    /// The replay of the puzzle `state` is on, with nothing played yet.
    public init(startOf state: RoomState) {
        self.init(puzzle: state.puzzleIndex, spec: state.spec, seed: state.settings.seed)
    }

    public var isSolved: Bool { solvedMillis != nil }

    /// All moves on the puzzle (the players' counts; more than `moves.count` when truncated).
    public var moveCount: Int { players.reduce(0) { $0 + $1.moves } }

    /// The joins among `moves` (`ReplayMove.isMove` false): they come on top of `moveCount`.
    public var joinCount: Int { moves.reduce(0) { $0 + ($1.isMove ? 0 : 1) } }

    /// The player's record, if they moved.
    public func player(_ id: PlayerID) -> ReplayPlayer? { players.first { $0.id == id } }

    /// The board as the puzzle started: its pieces where the seed dealt them,
    /// no players, no holds, the clock at zero.
    public func startState() -> RoomState {
        var state = RoomState(settings: RoomSettings(first: spec, seed: seed, cyclesPictures: false))
        if puzzle != 0 {
            state.applyUnchecked(RoomEvent(seq: 1, time: 0, body: .nextPuzzle(puzzle: puzzle, spec: spec)))
        }
        return state
    }

    /// Applies move `index` to `state` (a state this replay started and has
    /// applied the moves before `index` to). Moves that do not fit (damaged
    /// records) are skipped rather than trap.
    public func apply(move index: Int, to state: inout RoomState) {
        let move = moves[index]
        let count = state.pieceCount
        switch move.change {
        case .placed(let piece, let at, let rotation):
            guard state.canPlace(piece, at: at, rotation: rotation) else { return }
        case .merged(let piece, let other):
            guard state.canMerge(piece, other) else { return }
        case .swapped(let piece, let other):
            guard state.spec.kind == .swap, (0..<count).contains(piece), (0..<count).contains(other), piece != other else { return }
        }
        state.applyUnchecked(move.event(seq: state.seq + 1))
    }

    /// The board after the first `count` moves.
    public func state(after count: Int) -> RoomState {
        var state = startState()
        for i in 0..<min(count, moves.count) { apply(move: i, to: &state) }
        return state
    }
}
