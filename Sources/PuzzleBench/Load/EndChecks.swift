import PuzzleCore
import PuzzleProtocol

/// The checks at the end of a run, once play has stopped and every request
/// is answered: each bot's DIGEST against its room's reference mirror, and
/// each reference for lost or doubled pieces. (The stream checks during the
/// run are `ReferenceStream`'s.)
final class EndChecks {
    let tally: LoadTally
    /// Bots whose mirror differs from the server's DIGEST (or had none to compare).
    @exclusivity(unchecked) private(set) var digestMismatches = 0
    /// Bots that saw holds left at the end.
    @exclusivity(unchecked) private(set) var heldAtEnd = 0
    /// Room mirrors that lost or doubled a piece.
    @exclusivity(unchecked) private(set) var pieceErrors = 0

    init(tally: LoadTally) { self.tally = tally }

    /// `OK digest seq=<n> value=<hex16> correct=<c> total=<t> held=<h> puzzle=<i>`
    /// against the bot's room's reference mirror: the bot has followed the
    /// stream to the server's seq, the reference is there too with the same
    /// digest, and no hold is left.
    func checkDigest(_ bot: BenchBot, _ rest: LineScanner, room: ReferenceStream) {
        bot.checked = true
        guard case .digest(let server)? = ReplyCodec.decode(rest.bytes) else {
            digestMismatches += 1
            tally.note("bot\(bot.index): bad DIGEST reply '\(rest.string)'")
            return
        }
        guard let digest = room.referenceDigest, let locks = room.withReference({ $0.locks.count }) else {
            digestMismatches += 1
            tally.note("bot\(bot.index): no room mirror to compare")
            return
        }
        if server.seq != bot.lastSeq || server.seq != UInt64(room.referenceSeq) || server.value != digest.description {
            digestMismatches += 1
            tally.note("bot\(bot.index): seen to seq \(bot.lastSeq), room mirror seq=\(room.referenceSeq) digest=\(digest) but server seq=\(server.seq) value=\(server.value)")
        }
        if server.held != 0 || locks != 0 {
            heldAtEnd += 1
            tally.note("bot\(bot.index): holds left at the end: server held=\(server.held), room mirror \(locks)")
        }
    }

    /// Every room's reference mirror has every piece exactly once.
    func checkPieces(_ rooms: [BenchRoom]) {
        for room in rooms {
            if let problem = room.stream.withReference({ Self.pieceProblem($0) }) ?? nil {
                pieceErrors += 1
                tally.note("\(room.name): \(problem)")
            }
        }
    }

    /// Why the mirror does not have every piece exactly once, or nil.
    static func pieceProblem(_ room: RoomState) -> String? {
        let g = room.geometry
        var seen = [Bool](repeating: false, count: g.cellCount)
        var onBoard = 0
        for (piece, state) in room.pieces.enumerated() {
            switch state.location {
            case .board(let c):
                guard g.isOnBoard(c) else { return "piece \(piece) is off the board at \(c)" }
                let i = g.index(of: c)
                guard !seen[i] else { return "cell \(c) holds two pieces" }
                guard room.occupant(of: c) == piece else { return "cell \(c) does not list piece \(piece)" }
                seen[i] = true
                onBoard += 1
            case .table(let p):
                guard room.spec.kind == .jigsaw, g.contains(p) else { return "piece \(piece) lies at \(p), not on the table" }
            }
        }
        if room.spec.kind == .swap && onBoard != room.pieceCount { return "\(room.pieceCount - onBoard) swap tiles are missing from the board" }
        return nil
    }
}
