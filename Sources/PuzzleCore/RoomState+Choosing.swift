extension RoomState {
    /// Whether a piece is worth grabbing: nobody holds it and it is not yet right.
    public func isFree(_ piece: Int) -> Bool {
        locks[piece] == nil && !isCorrect(piece)
    }

    /// A free piece (`isFree`, and not `excluded`) chosen with `rng`: a few random
    /// probes, which find one at once while most pieces are free, then one scan
    /// from a random start, which finds the last few. Nil when there is none.
    public func randomFreePiece(using rng: inout SeededGenerator, probes: Int = 16,
                                excluding excluded: (Int) -> Bool = { _ in false }) -> Int? {
        let n = pieceCount
        guard n > 0 else { return nil }
        for _ in 0..<probes {
            let p = Int(rng.next() % UInt64(n))
            if isFree(p) && !excluded(p) { return p }
        }
        let start = Int(rng.next() % UInt64(n))
        for i in 0..<n {
            let p = (start + i) % n
            if isFree(p) && !excluded(p) { return p }
        }
        return nil
    }

    /// The piece a request means when it names none: the one piece the player
    /// holds. Holding none or several, the request must name one.
    public func implicitPiece(of player: PlayerID) -> ImplicitPiece {
        let holding = players[player]?.holding ?? []
        switch holding.count {
        case 0: return .noneHeld
        case 1: return .piece(holding[0])
        default: return .severalHeld
        }
    }
}

/// What `RoomState.implicitPiece(of:)` found.
public enum ImplicitPiece: Equatable, Sendable {
    case piece(Int)
    case noneHeld
    case severalHeld
}
