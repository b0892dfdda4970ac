/// Builds a room's replay of its current puzzle from the room's events, as
/// they happen (the server) or as a journal is restored (a restart): every
/// move with who made it and the puzzle clock's time, the solve's time.
///
/// Pure: each event is shown together with the state it applies to, before
/// it is applied (the rule for what counts as a move compares the two).
public struct ReplayRecorder: Hashable, Sendable {
    /// The replay of the puzzle being played (or just solved).
    public private(set) var replay: PuzzleReplay

    public init(replay: PuzzleReplay) {
        self.replay = replay
    }

    /// A recorder for the puzzle `state` is on, nothing recorded yet.
    public init(startOf state: RoomState) {
        replay = PuzzleReplay(startOf: state)
    }

    /// Records `event`, about to be applied to `state`.
    /// - Returns: the finished replay when the event solves the puzzle.
    @discardableResult
    public mutating func observe(_ event: RoomEvent, before state: RoomState) -> PuzzleReplay? {
        switch event.body {
        case .placed(let piece, let player, let location, let rotation):
            guard replay.puzzle == state.puzzleIndex, (0..<state.pieceCount).contains(piece),
                  state.changesPlace(piece, to: location, rotation: rotation) else { return nil }
            // A part put into the board puts each of its pieces.
            let right = max(0, state.board.correctChange(ifMoving: piece, to: location, rotation: rotation))
            add(ReplayMove(elapsed: state.elapsed(at: event.time), player: player,
                           change: .placed(piece: piece, at: location, rotation: rotation)),
                name: state.playerRecord(player)?.name, putRight: right)
        case .merged(let piece, let other, let player):
            guard replay.puzzle == state.puzzleIndex else { return nil }
            let move = ReplayMove(elapsed: state.elapsed(at: event.time), player: player, change: .merged(piece: piece, other: other))
            if replay.moves.count < PuzzleReplay.maxMoves { replay.moves.append(move) } else { replay.truncated = true }
        case .swapped(let piece, let other, let player):
            guard replay.puzzle == state.puzzleIndex, (0..<state.pieceCount).contains(piece),
                  (0..<state.pieceCount).contains(other) else { return nil }
            let a = state.pieces[piece].location, b = state.pieces[other].location
            var right = 0
            if !state.isCorrect(piece) && state.board.isCorrect(piece, at: b, rotation: 0) { right += 1 }
            if !state.isCorrect(other) && state.board.isCorrect(other, at: a, rotation: 0) { right += 1 }
            add(ReplayMove(elapsed: state.elapsed(at: event.time), player: player, change: .swapped(piece: piece, other: other)),
                name: state.playerRecord(player)?.name, putRight: right)
        case .solved(let puzzle, let elapsed):
            guard puzzle == replay.puzzle else { return nil }
            replay.solvedMillis = elapsed
            return replay
        case .nextPuzzle(let puzzle, let spec):
            replay = PuzzleReplay(puzzle: puzzle, spec: spec, seed: state.settings.seed)
        default:
            break
        }
        return nil
    }

    private mutating func add(_ move: ReplayMove, name: String?, putRight: Int) {
        if let i = replay.players.firstIndex(where: { $0.id == move.player }) {
            replay.players[i].moves += 1
            replay.players[i].placed += putRight
        } else {
            replay.players.append(ReplayPlayer(id: move.player, name: name ?? "player", placed: putRight, moves: 1))
        }
        if replay.moves.count < PuzzleReplay.maxMoves {
            replay.moves.append(move)
        } else {
            replay.truncated = true
        }
    }
}
