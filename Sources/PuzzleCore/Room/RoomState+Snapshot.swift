extension RoomState {
    /// Rebuilds a room from a recorded state (a snapshot from the wire or from
    /// disk). The puzzle's shapes are regenerated from the seed; the pieces, holds
    /// and players are taken as given, after checking that every piece exists
    /// exactly once and every hold has a holder in the room. The clock is at
    /// `elapsed` and runs from `now` if `clockRunning` (a solved puzzle's clock
    /// stands at its solve time). `colorSlots` gives present players' colour
    /// slots (distinct); a player without one (a version 1 snapshot, an
    /// older file) gets the lowest free slot, in id order.
    public init(settings: RoomSettings, puzzleIndex: Int, spec: PuzzleSpec, pieces: [PieceState],
                locks: [Int: PieceLock], players: [PlayerID: PlayerInfo], absent: [PlayerID: PlayerInfo] = [:],
                former: (moves: Int, total: Int) = (0, 0), seq: UInt64,
                elapsed: Int64, clockRunning: Bool, solveMillis: Int64?, now: Int64,
                colorSlots: [PlayerID: Int] = [:]) throws(SnapshotError) {
        var state = RoomState(settings: settings)
        let layout = PuzzleLayout(spec: spec, seed: settings.seed, index: puzzleIndex)
        guard pieces.count == spec.pieceCount else { throw .pieceCount(expected: spec.pieceCount, got: pieces.count) }
        state.puzzleIndex = puzzleIndex
        state.spec = spec
        state.geometry = layout.geometry
        state.cut = layout.cut
        state.pieces = pieces
        state.startPieces = layout.pieces
        var occupant = [Int32](repeating: -1, count: spec.pieceCount)
        for (i, piece) in pieces.enumerated() {
            guard (0...3).contains(piece.rotation) else { throw .badPiece(i) }
            switch piece.location {
            case .board(let c):
                guard layout.geometry.isOnBoard(c), occupant[layout.geometry.index(of: c)] < 0 else { throw .badPiece(i) }
                occupant[layout.geometry.index(of: c)] = Int32(i)
            case .table(let p):
                guard spec.kind == .jigsaw, layout.geometry.contains(p) else { throw .badPiece(i) }
            }
        }
        state.occupant = occupant
        var players = players
        for id in players.keys { players[id]?.holding = [] }
        for (piece, lock) in locks.sorted(by: { $0.key < $1.key }) {
            guard piece >= 0 && piece < pieces.count, players[lock.holder] != nil else { throw .badHold(piece) }
            players[lock.holder]?.holding.append(piece)
        }
        state.locks = locks
        var slotted: [PlayerID: PlayerInfo] = [:]
        var used = Set<Int>()
        for (id, slot) in colorSlots.sorted(by: { $0.key < $1.key }) where players[id] != nil {
            guard RoomLimits.colorSlots.contains(slot), used.insert(slot).inserted else {
                throw .badColorSlot(id.rawValue)
            }
            slotted[id] = players[id]
            slotted[id]?.colorSlot = slot
        }
        state.players = slotted
        for (id, info) in players.sorted(by: { $0.key < $1.key }) where slotted[id] == nil {
            var info = info
            info.colorSlot = state.lowestFreeColorSlot()
            state.players[id] = info
        }
        players = state.players
        // Present wins: a player cannot be both in the room and away.
        state.absent = absent.filter { players[$0.key] == nil }.mapValues { var p = $0; p.holding = []; return p }
        state.formerMoves = former.moves
        state.formerTotalMoves = max(former.total, former.moves)
        state.seq = seq
        state.solveMillis = solveMillis
        if clockRunning && solveMillis == nil {
            state.clockBase = 0
            state.clockRunningSince = now.clampedSubtracting(elapsed)
        } else {
            state.clockBase = solveMillis ?? elapsed
            state.clockRunningSince = nil
        }
        state.correctCount = (0..<pieces.count).reduce(0) { $0 + (state.isCorrect($1) ? 1 : 0) }
        self = state
    }
}

extension RoomState {
    /// Where every piece of puzzle `index` of a room with `seed` lies at its
    /// start: what a snapshot's `S pieces start` ranges refer to.
    public static func startPieces(spec: PuzzleSpec, seed: UInt64, index: Int) -> [PieceState] {
        PuzzleLayout(spec: spec, seed: seed, index: index).pieces
    }
}

/// Why a recorded room state could not be rebuilt.
public enum SnapshotError: Error, Hashable, Sendable {
    case pieceCount(expected: Int, got: Int)
    case badPiece(Int)
    case badHold(Int)
    /// A colour slot out of range, or one two present players share (the player's id).
    case badColorSlot(Int)
    case malformed(String)
}
