import PuzzleCore

/// A solved puzzle played back over the table in the full screen: the
/// playback (pure, on the app's clock) and the puzzle's picture. The live
/// room goes on underneath; leaving the replay shows it again.
public struct ReplayView: Sendable {
    public internal(set) var playback: ReplayPlayback
    public let picture: Picture?

    /// Speed when the player names none.
    public static let defaultSpeed = 4

    /// `colorSlots`: the live room's, so that its players keep their colours.
    public init(_ loaded: LoadedReplay, now: Int64, colorSlots: [PlayerID: Int] = [:]) {
        playback = ReplayPlayback(loaded.replay, speed: loaded.speed ?? Self.defaultSpeed, now: now, colorSlots: colorSlots)
        picture = loaded.picture
    }

    var replay: PuzzleReplay { playback.replay }

    /// The mover's name, for the lines under the board.
    func name(_ id: PlayerID) -> String { replay.player(id)?.name ?? "#\(id.rawValue)" }

    /// The lines drawn under the replayed board (each short enough for the
    /// table of an 80-column terminal): where the playback is, the last move
    /// and who made it, the keys; at the end, the totals.
    func bannerLines() -> [String] {
        let r = replay
        if playback.isFinished {
            let end = r.isSolved && !r.truncated ? "solved in \(ClientSession.clock(r.solvedMillis ?? 0))" : "the kept moves end here"
            return ["replay of puzzle \(r.puzzle): \(end)", ClientSession.statsText(r), "Esc leave  Enter again"]
        }
        let first = "replay of puzzle \(r.puzzle)  \(playback.speed)x\(playback.paused ? " paused" : "")  move \(playback.shown)/\(r.moves.count)  \(ClientSession.clock(playback.elapsedShown))"
        var last = "from the start"
        if let move = playback.lastMove {
            switch move.change {
            case .placed(let piece, .board(let cell), _): last = "\(name(move.player)) placed piece \(piece) in cell \(cell.row),\(cell.col)"
            case .placed(let piece, .table, _): last = "\(name(move.player)) put piece \(piece) on the table"
            case .swapped(let piece, let other): last = "\(name(move.player)) swapped tiles \(piece) and \(other)"
            }
        }
        return [first, last, "Enter \(playback.paused ? "play" : "pause")  Up/Dn speed  Right step  Esc leave"]
    }
}
