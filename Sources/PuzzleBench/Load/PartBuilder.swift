import PuzzleCore

/// `--play parts`: which piece a bot grabs and where it takes it, so that
/// parts form on the table and are then carried into the board. Pure: it
/// reads the room's mirror and the bots' claims, and decides; `PlayPolicy`
/// sends the requests.
///
/// A bot grabs a free piece: not in its cell, its part held by nobody and
/// claimed by no other bot. Holding it (and so its whole part), it looks for
/// a picture neighbour of any of the part's pieces that lies loose on the
/// table at the part's rotation, with its own part held and claimed by
/// nobody, and drags the part to where it joins that neighbour, off by up to
/// one unit on each axis (the snap distance) so that the server's snapping is
/// exercised too. A part of `carrySize` pieces or more, or one with no such
/// neighbour (or none it can reach without leaving the table), goes into the
/// board instead: the grip to its own cell, the rest beside it.
///
/// The bots do not turn pieces: in a room with rotation, a part turned
/// otherwise than 0 stays on the table where it is carried.
struct PartBuilder {
    /// A part of this many pieces is carried into the board.
    let carrySize: Int

    /// Where a bot takes what it holds: the grip's corner at the end of the
    /// path, and the neighbour it means to join (nil: into the board).
    struct Destination: Equatable {
        var point: Point
        var joining: Int?
    }

    /// The key bots claim a piece under: its part (named by its lowest
    /// piece), or the piece itself when it is in no part. Two bots never go
    /// for one part at once, so HELD refusals come from mirrors a moment
    /// behind (a merge that joined two claims) or from other players.
    static func claimKey(of piece: Int, in room: borrowing RoomState) -> Int {
        room.parts.part(of: piece) ?? piece
    }

    /// Whether `piece` is worth grabbing: not in its cell, nobody holds it or
    /// its part, and no bot has claimed its part. The array test first, as
    /// in `RoomState.isFree`.
    static func isFree(_ piece: Int, in room: borrowing RoomState, claimed: (Int) -> Bool) -> Bool {
        !room.isCorrect(piece) && room.holder(of: piece) == nil && !claimed(claimKey(of: piece, in: room))
    }

    /// A free piece (`isFree`): a few random probes, which find one at once
    /// while most pieces are free, then one scan from a random start, which
    /// finds the last few. Nil when there is none.
    static func choosePiece(in room: borrowing RoomState, using rng: inout SeededGenerator, claimed: (Int) -> Bool) -> Int? {
        let n = room.pieceCount
        guard n > 0 else { return nil }
        for _ in 0..<16 {
            let p = Int(rng.next() % UInt64(n))
            if isFree(p, in: room, claimed: claimed) { return p }
        }
        let start = Int(rng.next() % UInt64(n))
        for i in 0..<n {
            let p = (start + i) % n
            if isFree(p, in: room, claimed: claimed) { return p }
        }
        return nil
    }

    /// Where to take the part held by `grip` (see the type's notes).
    func destination(of grip: Int, in room: borrowing RoomState, using rng: inout SeededGenerator,
                     claimed: (Int) -> Bool) -> Destination {
        let home = Destination(point: room.geometry.origin(of: room.homeCell(of: grip)), joining: nil)
        let members = room.parts.pieces(with: grip)
        guard members.count < carrySize else { return home }
        let own = room.parts.part(of: grip)
        let rotation = room.displayRotation(of: grip)
        let rows = room.spec.rows, cols = room.spec.cols
        var candidates: [Int] = []
        for m in members {
            let r = m / cols, c = m % cols
            for n in [r > 0 ? m - cols : -1, c < cols - 1 ? m + 1 : -1, r < rows - 1 ? m + cols : -1, c > 0 ? m - 1 : -1] where n >= 0 {
                if let own, room.parts.part(of: n) == own { continue }
                guard case .table = room.pieces[n].location, room.pieces[n].rotation == rotation,
                      room.holder(of: n) == nil, !claimed(Self.claimKey(of: n, in: room)) else { continue }
                candidates.append(n)
            }
        }
        let board = room.board
        while !candidates.isEmpty {
            let n = candidates.remove(at: Int(rng.next() % UInt64(candidates.count)))
            // The grip's corner when `n` lies exactly where it belongs beside
            // it: `n`'s corner plus the grip's place beside `n`.
            let exact = board.point(of: grip, grip: n, at: board.origin(of: n), rotation: rotation)
            let off = Point(x: exact.x + Int(rng.next() % 3) - 1, y: exact.y + Int(rng.next() % 3) - 1)
            for point in [off, exact] where room.geometry.contains(point) && board.fitsOnTable(grip, at: point, rotation: rotation) {
                return Destination(point: point, joining: n)
            }
        }
        return home
    }
}
