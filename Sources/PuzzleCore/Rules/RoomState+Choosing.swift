extension RoomState {
    /// Whether a piece is worth grabbing: nobody holds it and it is not yet right.
    public func isFree(_ piece: Int) -> Bool {
        // The array test first: late in a puzzle most pieces are right, and a
        // hash lookup per probe was a bench's hottest cost.
        !isCorrect(piece) && locks[piece] == nil
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

    /// The piece a player pointing at `point` means: the one drawn on top there.
    /// Held pieces lie above loose ones, loose ones above placed ones, and among
    /// loose ones the higher number lies above (the order clients draw in).
    /// O(pieces) for the loose ones; called per click, not per frame.
    public func topPiece(at point: Point) -> Int? {
        let unit = geometry.unit
        func covers(_ p: Point) -> Bool {
            point.x >= p.x && point.x < p.x + unit && point.y >= p.y && point.y < p.y + unit
        }
        if let held = locks.filter({ covers($0.value.point) }).max(by: { $0.key < $1.key }) { return held.key }
        for piece in stride(from: pieceCount - 1, through: 0, by: -1) where locks[piece] == nil {
            if case .table(let p) = pieces[piece].location, covers(p) { return piece }
        }
        // `cell(under:)` takes a piece's corner and looks under its centre.
        guard let cell = geometry.cell(under: Point(x: point.x - unit / 2, y: point.y - unit / 2)),
              let placed = occupant(of: cell), locks[placed] == nil else { return nil }
        return placed
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
