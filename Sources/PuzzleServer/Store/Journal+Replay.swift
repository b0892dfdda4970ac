import PuzzleCore

extension Journal {
    /// Whether a journal record can be applied to `state` without breaking its
    /// invariants. A record that fits is what the live room did; one that does
    /// not means the files are damaged, and it is skipped instead of trapping
    /// on an index or corrupting the board.
    static func fits(_ body: EventBody, _ state: RoomState) -> Bool {
        let count = state.pieceCount
        switch body {
        case .placed(let piece, _, let location, let rotation):
            return state.canPlace(piece, at: location, rotation: rotation)
        case .merged(let piece, let other, _):
            return state.canMerge(piece, other)
        case .swapped(let piece, let other, _):
            guard state.spec.kind == .swap, (0..<count).contains(piece), (0..<count).contains(other), piece != other else { return false }
            return state.pieces[piece].location.cell != nil && state.pieces[other].location.cell != nil
        case .solved(let puzzle, _):
            return puzzle == state.puzzleIndex && !state.isSolved
        case .nextPuzzle(let puzzle, _):
            return puzzle == state.puzzleIndex + 1
        case .joined(let player, let name, let color):
            return RoomLimits.playerIDs.contains(player.rawValue) && NameRule.isValid(name)
                && color.map { RoomLimits.colorSlots.contains($0) } ?? true
        case .left(let player), .hint(let player, _):
            return state.players[player] != nil
        case .forgotten(let player):
            // A player still present: its `left` never reached the disk (a
            // write refused while its link dropped), then it was forgotten.
            // The record changes nothing but the seq (as the live room would
            // apply it); after the load the player is away, forgotten again
            // in time. Not damage.
            return state.absent[player] != nil || state.players[player] != nil
        default:
            return false
        }
    }
}
