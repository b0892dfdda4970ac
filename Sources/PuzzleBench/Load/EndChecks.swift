import PuzzleCore
import PuzzleProtocol

/// The checks at the end of a run, once play has stopped and every request
/// is answered: each bot's DIGEST against its room's reference mirror, each
/// reference for lost or doubled pieces and for unsound parts, and one final
/// SYNC snapshot a room from the server, read back (which checks its parts)
/// and compared with the mirror. (The stream checks during the run are
/// `ReferenceStream`'s.)
final class EndChecks {
    let tally: LoadTally
    /// Bots whose mirror differs from the server's DIGEST (or had none to compare).
    @exclusivity(unchecked) private(set) var digestMismatches = 0
    /// Bots that saw holds left at the end.
    @exclusivity(unchecked) private(set) var heldAtEnd = 0
    /// Room mirrors that lost or doubled a piece.
    @exclusivity(unchecked) private(set) var pieceErrors = 0
    /// Room mirrors, and final snapshots from the server, with a part that is
    /// not sound, or a snapshot that does not read back or differs from the mirror.
    @exclusivity(unchecked) private(set) var partErrors = 0
    /// Final snapshots read and compared (one a room).
    @exclusivity(unchecked) private(set) var snapshotsChecked = 0
    /// Parts in the final snapshots, over every room.
    @exclusivity(unchecked) private(set) var partsAtEnd = 0

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

    /// `OK sync seq=<n> digest=<hex>` with the snapshot `lines` before it (of
    /// the bot's room, asked once play is over): the snapshot reads back,
    /// which checks every part in it (`snapshotProblem`), and it is the room's
    /// mirror: same seq, same digest, as the reply says too.
    func checkSnapshot(bot: Int, _ rest: LineScanner, lines: [UInt8], room: ReferenceStream, now: Int64) {
        snapshotsChecked += 1
        let text = String(decoding: lines, as: UTF8.self)
        let snapshot: RoomSnapshot
        switch Self.readSnapshot(text.split(separator: "\n"), now: now) {
        case .failure(let problem):
            partErrors += 1
            tally.note("\(room.name): the server's final snapshot: \(problem)")
            return
        case .success(let s): snapshot = s
        }
        partsAtEnd += snapshot.state.parts.members.count
        guard case .synced(let seq, let digest, _, _)? = ReplyCodec.decode(rest.bytes) else {
            partErrors += 1
            tally.note("bot\(bot): bad SYNC reply '\(rest.string.prefix(80))'")
            return
        }
        let mine = room.referenceDigest
        if seq != snapshot.state.seq || digest != snapshot.state.digest.description
            || Int(seq) != room.referenceSeq || mine != snapshot.state.digest {
            partErrors += 1
            tally.note("\(room.name): final snapshot seq=\(seq) digest=\(digest) (read back: \(snapshot.state.seq) \(snapshot.state.digest)), room mirror seq=\(room.referenceSeq) digest=\(mine.map(\.description) ?? "-")")
        }
    }

    /// Every room's reference mirror has only sound parts (`partProblem`).
    func checkParts(_ rooms: [BenchRoom]) {
        for room in rooms {
            if let problem = room.stream.withReference({ Self.partProblem($0, room: room.name) }) ?? nil {
                partErrors += 1
                tally.note("\(room.name): room mirror: \(problem)")
            }
        }
    }

    /// Why the parts of `state` are not sound, or nil. Sound: each has two
    /// pieces or more, is connected through picture neighbours, lies loose
    /// at one rotation with every piece exactly where it belongs beside the
    /// lowest, and has one holder at most. The core checks exactly that when
    /// it reads a snapshot, so the state is written as a full snapshot (every
    /// piece listed, none derived from its part) and read back.
    static func partProblem(_ state: borrowing RoomState, room: String) -> String? {
        let snapshot = RoomSnapshot(name: room, state: copy state, picture: nil)
        let lines = SnapshotCodec.lines(snapshot, now: 0)
        switch readSnapshot(lines.map { $0[...] }, now: 0) {
        case .failure(let problem): return problem.description
        case .success(let back):
            return back.state.digest == snapshot.state.digest ? nil : "reads back with digest \(back.state.digest), not \(snapshot.state.digest)"
        }
    }

    /// A snapshot's `S` lines read back (`SnapshotCodec.decode`, which checks
    /// every part and hold), or why they do not read.
    static func readSnapshot(_ lines: [Substring], now: Int64) -> Result<RoomSnapshot, SnapshotProblem> {
        do {
            return .success(try SnapshotCodec.decode(lines, now: now))
        } catch {
            return .failure(SnapshotProblem(description: "does not read back: \(error)"))
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

/// Why a snapshot failed an end check.
struct SnapshotProblem: Error, CustomStringConvertible {
    var description: String
}
