import PuzzleCore
import PuzzleSystem

/// The rules-engine benchmark (`puzzle bench --core`): grab, drag and drop
/// cycles by several players straight on a `RoomState`, no network, one core.
///
/// Each round every player grabs a piece, then all players drag their pieces
/// step by step towards the home cells, then all drop. Each phase is timed as
/// one batch over all players, so the clock is read twice per `players`
/// operations and its cost stays out of the figures. Choosing pieces and
/// paths, and starting the next puzzle once one is solved, are not timed.
public struct CoreBenchmark: Sendable {
    public var kind: PuzzleKind
    public var size: Int
    public var players: Int
    public var steps: Int
    public var seed: UInt64

    public init(kind: PuzzleKind, size: Int, players: Int = 64, steps: Int = 8, seed: UInt64 = 1) {
        self.kind = kind
        self.size = size
        self.players = players
        self.steps = steps
        self.seed = seed
    }

    /// Operations per second of one timed run.
    public struct Result: Equatable, Sendable {
        public var dragsPerSecond: Double
        public var grabsPerSecond: Double
        public var dropsPerSecond: Double
        /// Every operation (grab, drag, drop) over the time spent in all of them.
        public var operationsPerSecond: Double
        public var drags: Int
        public var grabs: Int
        public var drops: Int
        /// Operations the core refused (expected only around a solve).
        public var refused: Int
        public var solves: Int
    }

    /// One run of about `seconds` seconds of timed operations.
    public func run(seconds: Double) throws -> Result {
        let spec = try PuzzleSpec(kind: kind, rows: size, cols: size)
        var room = RoomState(settings: RoomSettings(first: spec, leaseMillis: 1 << 40, seed: seed))
        var clock: Int64 = 0
        let ids = (1...players).map(PlayerID.init)
        for id in ids { try room.perform(.join(name: "p\(id.rawValue)"), by: id, at: clock) }
        var rng = SeededGenerator(seed: seed ^ 0xC0FFEE)
        var events: [RoomEvent] = []
        events.reserveCapacity(8)
        var chosen = [Int](repeating: -1, count: players)
        var paths = [[Point]](repeating: [], count: players)
        var taken = Set<Int>()
        var result = Result(dragsPerSecond: 0, grabsPerSecond: 0, dropsPerSecond: 0, operationsPerSecond: 0,
                            drags: 0, grabs: 0, drops: 0, refused: 0, solves: 0)
        var grabNanos: UInt64 = 0, dragNanos: UInt64 = 0, dropNanos: UInt64 = 0
        let budget = UInt64(seconds * 1e9)

        while grabNanos + dragNanos + dropNanos < budget {
            clock += 1
            if room.isSolved {
                result.solves += 1
                try room.perform(.next, by: ids[0], at: clock)
            }
            // Untimed: choose distinct unheld, misplaced pieces and their paths.
            taken.removeAll(keepingCapacity: true)
            for p in 0..<players {
                let piece = room.randomFreePiece(using: &rng, probes: 32, excluding: taken.contains) ?? -1
                chosen[p] = piece
                guard piece >= 0 else { paths[p] = []; continue }
                taken.insert(piece)
                paths[p] = Self.path(from: room.position(of: piece), to: room.geometry.origin(of: room.homeCell(of: piece)), steps: steps)
            }

            var t0 = MonotonicClock.nowNanoseconds
            for p in 0..<players where chosen[p] >= 0 {
                events.removeAll(keepingCapacity: true)
                do { try room.perform(.grab(piece: chosen[p]), by: ids[p], at: clock, into: &events); result.grabs += 1 } catch { chosen[p] = -1; result.refused += 1 }
            }
            var t1 = MonotonicClock.nowNanoseconds
            grabNanos += t1 - t0
            for step in 0..<steps {
                t0 = MonotonicClock.nowNanoseconds
                for p in 0..<players where chosen[p] >= 0 {
                    events.removeAll(keepingCapacity: true)
                    do { try room.perform(.drag(piece: chosen[p], to: paths[p][step]), by: ids[p], at: clock, into: &events); result.drags += 1 } catch { result.refused += 1 }
                }
                t1 = MonotonicClock.nowNanoseconds
                dragNanos += t1 - t0
            }
            t0 = MonotonicClock.nowNanoseconds
            for p in 0..<players where chosen[p] >= 0 {
                events.removeAll(keepingCapacity: true)
                do { try room.perform(.drop(piece: chosen[p]), by: ids[p], at: clock, into: &events); result.drops += 1 } catch { result.refused += 1 }
            }
            t1 = MonotonicClock.nowNanoseconds
            dropNanos += t1 - t0
        }
        func rate(_ n: Int, _ ns: UInt64) -> Double { ns == 0 ? 0 : Double(n) * 1e9 / Double(ns) }
        result.grabsPerSecond = rate(result.grabs, grabNanos)
        result.dragsPerSecond = rate(result.drags, dragNanos)
        result.dropsPerSecond = rate(result.drops, dropNanos)
        result.operationsPerSecond = rate(result.grabs + result.drags + result.drops, grabNanos + dragNanos + dropNanos)
        return result
    }

    /// A piece that is neither held nor in place: random probes, then a scan
    /// (only near the end of a puzzle, when few pieces are left). -1 if none.
    /// `steps` points from just after `start` to exactly `end`, evenly spaced.
    static func path(from start: Point, to end: Point, steps: Int) -> [Point] {
        (1...steps).map { i in
            Point(x: start.x + (end.x - start.x) * i / steps, y: start.y + (end.y - start.y) * i / steps)
        }
    }
}
