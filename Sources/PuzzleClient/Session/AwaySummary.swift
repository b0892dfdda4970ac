import PuzzleCore

/// What changed in a room while this client's link was down, told once on the
/// rejoin: the events of that time never reached it, only the new snapshot.
enum AwaySummary {
    /// "while you were away: your piece 3 went back; 12/36 -> 15/36 placed;
    /// carol joined", or nil when nothing a player would notice changed.
    ///
    /// Who left is not told: when the server itself restarted, everyone's link
    /// dropped, and the first back would read that all the others had left.
    static func text(before: RoomState, after: RoomState, me: PlayerID?, now: Int64) -> String? {
        var parts: [String] = []
        if let me {
            // Held when the link dropped and gone now: the lease ran out, or the server restarted.
            let lost = before.locks.filter { $0.value.holder == me && after.locks[$0.key]?.holder != me }.keys.sorted()
            if !lost.isEmpty {
                parts.append("your piece\(lost.count == 1 ? "" : "s") \(lost.map(String.init).joined(separator: ", ")) went back")
            }
        }
        if after.puzzleIndex != before.puzzleIndex {
            parts.append("puzzle \(before.puzzleIndex) was finished; now puzzle \(after.puzzleIndex)")
        } else {
            let was = before.progress(at: now), got = after.progress(at: now)
            if was.correct != got.correct { parts.append("\(was.correct)/\(was.total) -> \(got.correct)/\(got.total) placed") }
            if before.solveMillis == nil, after.solveMillis != nil { parts.append("the puzzle was solved") }
        }
        let arrived = after.players.keys.filter { before.players[$0] == nil && $0 != me }.sorted { $0.rawValue < $1.rawValue }
        parts += arrived.map { "\(after.players[$0]!.name) joined" }
        return parts.isEmpty ? nil : "while you were away: " + parts.joined(separator: "; ")
    }
}
