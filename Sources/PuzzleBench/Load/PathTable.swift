import PuzzleCore

/// Every bot's current and previous drag path in one flat table, indexed by
/// bot: timing a delivered drag (millions a second) reads one small block of
/// hot memory instead of chasing the sender's object and its arrays.
final class PathTable {
    let steps: Int
    /// Per bot: the piece of the current path, then of the previous one.
    private let pieces: UnsafeMutablePointer<Int>
    /// Per bot: `steps` current steps, then `steps` previous ones.
    private let points: UnsafeMutablePointer<PathStep>

    init(bots: Int, steps: Int) {
        self.steps = steps
        pieces = .allocate(capacity: 2 * bots)
        pieces.initialize(repeating: -1, count: 2 * bots)
        points = .allocate(capacity: 2 * steps * bots)
        points.initialize(repeating: PathStep(x: 0, y: 0, sent: 0), count: 2 * steps * bots)
    }

    deinit {
        pieces.deallocate()
        points.deallocate()
    }

    /// Starts `bot`'s path for `piece` in `steps` even steps from `start` to
    /// `end`, keeping the previous path to time its late deliveries.
    func begin(bot: Int, piece: Int, from start: Point, to end: Point) {
        let p = points + 2 * steps * bot
        (p + steps).update(from: p, count: steps)
        pieces[2 * bot + 1] = pieces[2 * bot]
        pieces[2 * bot] = piece
        let k = steps
        for i in 0..<k {
            p[i] = PathStep(x: Int32(start.x + (end.x - start.x) * (i + 1) / k),
                            y: Int32(start.y + (end.y - start.y) * (i + 1) / k), sent: 0)
        }
    }

    /// Step `i` of `bot`'s current path.
    func step(bot: Int, _ i: Int) -> PathStep { points[2 * steps * bot + i] }

    /// Step `i` of `bot`'s current path went out, meant for monotonic time `t`.
    func markSent(bot: Int, _ i: Int, at t: UInt64) { points[2 * steps * bot + i].sent = t }

    /// The intended send time of `bot`'s drag of `piece` to (x, y), if it is
    /// one of its current or previous path's steps already sent.
    @inline(__always)
    func intendedTime(bot: Int, piece: Int, x: Int, y: Int) -> UInt64? {
        let x = Int32(truncatingIfNeeded: x), y = Int32(truncatingIfNeeded: y)
        for half in 0..<2 where pieces[2 * bot + half] == piece {
            let p = points + (2 * bot + half) * steps
            for i in 0..<steps where p[i].x == x && p[i].y == y && p[i].sent != 0 { return p[i].sent }
        }
        return nil
    }
}

/// One step of a bot's drag path: where to, and when it was meant to go
/// (0 while not sent).
struct PathStep {
    var x: Int32
    var y: Int32
    var sent: UInt64
}
