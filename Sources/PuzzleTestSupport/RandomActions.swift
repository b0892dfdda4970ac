import PuzzleCore

/// Random player actions for seeded fuzz-style games in the tests: mostly
/// plausible (drags aimed near the held piece's home, so boards fill up), with
/// a share of nonsense (unknown pieces, drops without a hold, early NEXT) that
/// the room must refuse without changing anything.
public enum RandomActions {
    public static func next(for player: PlayerID, in room: RoomState, using rng: inout SeededGenerator) -> Action {
        let held = room.players[player]?.holding ?? []
        let roll = rng.next() % 100
        if let piece = held.last, roll < 80 {
            switch roll {
            case 0..<45:
                let home = room.geometry.origin(of: room.homeCell(of: piece))
                let jitter = Int(rng.next() % 9) - 4
                let aim = rng.next() % 3 == 0
                    ? Point(x: Int(rng.next() % UInt64(room.geometry.width + 4)) - 2,
                            y: Int(rng.next() % UInt64(room.geometry.height + 4)) - 2)
                    : Point(x: home.x + jitter, y: home.y + jitter / 2)
                return .drag(piece: piece, to: aim)
            case 45..<55: return .rotate(piece: piece)
            case 55..<75: return .drop(piece: piece)
            default: return .release(piece: piece)
            }
        }
        switch roll {
        case 0..<90: return .grab(piece: Int(rng.next() % UInt64(room.pieceCount + 2)) - 1)
        case 90..<93: return .hint
        case 93..<95: return .drop(piece: Int(rng.next() % UInt64(room.pieceCount)))
        default: return .next
        }
    }
}
