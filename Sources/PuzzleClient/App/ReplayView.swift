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

    /// The status line's words after the room while the replay plays: its
    /// speed, where it is, the clock and the last move with who made it.
    func statusWords() -> [String] {
        let r = replay
        var words = ["\(playback.speed)x\(playback.paused ? " paused" : "")", "move \(playback.shown)/\(r.moves.count)",
                     PlayerText.clock(playback.elapsedShown)]
        if playback.isFinished { words[0] = "the end" }
        if let move = playback.lastMove {
            switch move.change {
            case .placed(let piece, .board(let cell), _): words.append("\(name(move.player)) placed piece \(piece) in cell \(cell.row),\(cell.col)")
            case .placed(let piece, .table, _): words.append("\(name(move.player)) put piece \(piece) on the table")
            case .swapped(let piece, let other): words.append("\(name(move.player)) swapped tiles \(piece) and \(other)")
            case .merged(let piece, let other): words.append("\(name(move.player)) joined piece \(piece) to piece \(other)")
            }
        } else {
            words.append("the start")
        }
        return words
    }

    /// The replay's keys, where the panel lists the table's (4 rows of 24 columns).
    func panelKeys() -> [String] {
        ["Enter \(playback.isFinished ? "again" : playback.paused ? "play" : "pause")  Right step",
         "Up/Dn speed  Home start", "End the end", "Esc back to the room"]
    }

    /// Over the solved board at the end: the totals.
    func endLines() -> [String]? {
        guard playback.isFinished else { return nil }
        let r = replay
        let end = r.isSolved && !r.truncated ? "solved in \(PlayerText.seconds(r.solvedMillis ?? 0)) s" : "the kept moves end here"
        return ["*** replay of puzzle \(r.puzzle): \(end) ***", PlayerText.statsText(r), "Enter again  Esc back to the room"]
    }
}
