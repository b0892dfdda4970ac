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

    /// What `line` is to the thinning.
    static func classify(_ line: String) -> Kind {
        var utf8 = line.utf8[...]
        guard utf8.starts(with: "EV ".utf8) else { return .other }
        utf8 = utf8.dropFirst(3)
        guard let space = utf8.firstIndex(of: UInt8(ascii: " ")), space > utf8.startIndex,
              utf8[..<space].allSatisfy(isDigit) else { return .other }
        utf8 = utf8[utf8.index(after: space)...]
        let dragged: Bool
        if utf8.starts(with: "dragged ".utf8) {
            dragged = true
        } else if utf8.starts(with: "grabbed ".utf8) || utf8.starts(with: "rotated ".utf8)
                    || utf8.starts(with: "returned ".utf8) || utf8.starts(with: "placed ".utf8) {
            dragged = false
        } else {
            return .other
        }
        guard let kindEnd = utf8.firstIndex(of: UInt8(ascii: " ")) else { return .other }
        var piece = 0
        var digits = 0
        for byte in utf8[utf8.index(after: kindEnd)...] {
            guard isDigit(byte) else {
                guard byte == UInt8(ascii: " "), digits > 0 else { return .other }
                return dragged ? .dragged(piece) : .aboutPiece(piece)
            }
            guard digits < 9 else { return .other }
            piece = piece * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return .other
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
