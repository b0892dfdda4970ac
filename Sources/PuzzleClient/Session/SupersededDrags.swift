import PuzzleProtocol

/// `dragged` events a client need not mirror one by one. Where many players
/// drag, most of what a client reads is drags, and each one read is decoded
/// and applied to its mirror of the room; a driver that reads lines in
/// batches can skip a drag that a later drag of the same piece overrides
/// (issue 30: twenty telnet players mirroring every drag of a hundred bots
/// took the server's two cores).
///
/// Why that leaves the mirror as every line would: a drag changes only its
/// piece's hold (where it is, its drop target, its lease), and only if the
/// dragger still holds it; the last drag of a piece sets all three. So an
/// earlier drag of piece p may go whenever a later drag of p follows and,
/// between them, no line names p in a way that reads or ends its hold:
/// `grabbed`, `rotated`, `placed` and `returned` of p end p's run (a grab
/// or a drop of another piece does not), and any other line (a reply, a
/// player leaving, a merge, a solve, a line not understood) ends every
/// run. Lines are never reordered.
public enum SupersededDrags {
    /// `lines` (server lines, no terminator) without the `dragged` events a
    /// later `dragged` of the same piece makes moot; the rest in their order.
    public static func skipped(in lines: [String]) -> [String] {
        guard lines.count > 1 else { return lines }
        var keep = [Bool](repeating: true, count: lines.count)
        /// Each piece's last drag since the last line that ended its run.
        var latest: [Int: Int] = [:]
        var skippedAny = false
        for (i, line) in lines.enumerated() {
            switch classify(line) {
            case .dragged(let piece):
                if let earlier = latest.updateValue(i, forKey: piece) {
                    keep[earlier] = false
                    skippedAny = true
                }
            case .aboutPiece(let piece):
                latest[piece] = nil
            case .other:
                if !latest.isEmpty { latest.removeAll(keepingCapacity: true) }
            }
        }
        guard skippedAny else { return lines }
        var out: [String] = []
        out.reserveCapacity(lines.count)
        for (i, line) in lines.enumerated() where keep[i] { out.append(line) }
        return out
    }

    enum Kind: Equatable {
        /// `EV <seq> dragged <piece> ...`
        case dragged(Int)
        /// `EV <seq> grabbed|rotated|placed|returned <piece> ...`: ends that piece's run.
        case aboutPiece(Int)
        /// Anything else: ends every run.
        case other
    }

    /// What `line` is to the thinning (read from its bytes: `EventHead`).
    static func classify(_ line: String) -> Kind {
        var line = line
        guard let head = line.withUTF8({ EventHead.read(UnsafeRawBufferPointer($0)) }),
              let piece = head.first, head.second != nil else { return .other }
        switch head.kind {
        case .dragged: return .dragged(piece)
        case .grabbed, .rotated, .placed, .returned: return .aboutPiece(piece)
        default: return .other
        }
    }
}
