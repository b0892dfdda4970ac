import PuzzleCore

/// `--play carry`: each bot builds one part of `size` pieces on the table and
/// then carries it round the table, cycle after cycle: one grab, `--steps`
/// drags and one drop, the same shape of cycle as `--play pieces`, so that a
/// run with `--carry 8` and one with `--carry 1` (single pieces) differ only in
/// what a drag moves. That pair is the relay's measure of parts: whatever
/// size a part is, a drag of it is one line on the wire.
///
/// Pure: it reads the room's mirror and decides; `PlayPolicy` sends the
/// requests.
///
/// A bot's part is a run of `size` pieces along a row of the picture: the
/// `seat`-th bot of a room takes run `seat % perRow` of row `2 * (seat /
/// perRow)`, with a column left out between runs and a row between rows, so
/// no two bots' parts are picture neighbours and never join each other.
/// While its part is not whole, a bot grabs the first piece not yet in it and
/// drops it exactly beside the one before it (a join); when that would take
/// it off the table it carries the part away from the edge first. Once whole,
/// each cycle carries the part to a random place on the table where it joins
/// nothing and that is no drop target (`RoomState.dropTarget`), so it never
/// goes into the board.
struct CarryPlan {
    /// Pieces in a bot's part (1: a single piece).
    let size: Int

    /// Parts of `size` pieces that fit side by side along a row of `cols`.
    static func perRow(size: Int, cols: Int) -> Int { (cols + 1) / (size + 1) }

    /// Rows a board needs for `bots` parts of `size` pieces across `cols` columns.
    static func rowsNeeded(bots: Int, size: Int, cols: Int) -> Int? {
        let per = perRow(size: size, cols: cols)
        guard per > 0 else { return nil }
        return 2 * ((bots + per - 1) / per) - 1
    }

    /// The pieces of the part the `seat`-th bot of a room builds, in order
    /// along its row.
    func pieces(forSeat seat: Int, rows: Int, cols: Int) -> [Int] {
        let per = Self.perRow(size: size, cols: cols)
        let row = 2 * (seat / per), first = (seat % per) * (size + 1)
        precondition(per > 0 && row < rows, "the options' check lets through only boards that hold every part")
        return (0..<size).map { row * cols + first + $0 }
    }

    /// What to grab next for a bot whose part is `own`: the first piece not
    /// yet joined to the first (the part grows), or the first (the whole part
    /// is carried). Nil when that piece is held by someone.
    func grip(for own: [Int], in room: borrowing RoomState) -> Int? {
        let target = missing(from: own, in: room).map { i -> Int in
            // Beside the piece before it, unless that lies off the table.
            let at = besidePoint(own[i], before: own[i - 1], in: room)
            return room.board.fitsOnTable(own[i], at: at, rotation: room.pieces[own[i - 1]].rotation) ? own[i] : own[0]
        } ?? own[0]
        return room.holder(of: target) == nil && !room.isCorrect(target) ? target : nil
    }

    /// Where the grabbed piece's corner goes: exactly beside the piece
    /// before it (a join), or a random free place (see the type's notes).
    /// Nil when no place was found in a few tries (the bot drops where it is).
    func destination(of grip: Int, own: [Int], in room: borrowing RoomState, using rng: inout SeededGenerator) -> Point? {
        if let i = missing(from: own, in: room), own[i] == grip {
            return besidePoint(grip, before: own[i - 1], in: room)
        }
        let geometry = room.geometry, rotation = room.pieces[grip].rotation
        guard let holder = room.holder(of: grip) else { return nil }
        for _ in 0..<64 {
            let p = Point(x: Int(rng.next() % UInt64(geometry.width)), y: Int(rng.next() % UInt64(geometry.height)))
            guard room.board.fitsOnTable(grip, at: p, rotation: rotation),
                  room.dropTarget(piece: grip, at: p, rotation: rotation, holder: holder) == nil,
                  room.board.joins(grip, at: p, rotation: rotation, isFree: { room.holder(of: $0) == nil }) == nil
            else { continue }
            return p
        }
        return nil
    }

    /// The index in `own` of the first piece not joined to `own[0]`, if any.
    private func missing(from own: [Int], in room: borrowing RoomState) -> Int? {
        guard own.count > 1 else { return nil }
        let part = room.parts.part(of: own[0])
        return (1..<own.count).first { part == nil || room.parts.part(of: own[$0]) != part }
    }

    /// `piece`'s corner when it lies exactly where it belongs beside `before`.
    private func besidePoint(_ piece: Int, before: Int, in room: borrowing RoomState) -> Point {
        room.board.point(of: piece, grip: before, at: room.position(of: before), rotation: room.pieces[before].rotation)
    }
}
