import PuzzleCore
import PuzzleSystem

/// The rules engine with big parts (`puzzle bench --core`, after the
/// grab-drag-drop table): single operations on a square jigsaw whose lower
/// half is in the board and whose upper half lies on the table as two parts
/// of a quarter of the pieces each (a 100x100: two 2,500-piece parts), or as
/// one part of half the pieces. Each operation is timed alone with
/// `perform`, the core's whole cost of a request (plan and apply), and the
/// median of many is reported:
///
/// - a drop that merges the two parts (the right one dropped one unit off its
///   place beside the left one, so it snaps too);
/// - a grab of the one big part, released again untimed;
/// - a drag step of it on the table, and one over its cells in the board
///   (where every piece of it is checked to fit: the drop target);
/// - its drop into the board (every piece into its cell; it solves the puzzle).
///
/// A drop changes the room, so each drop is timed on a room of its own,
/// made untimed. Every operation is checked to have done what it should.
public struct PartBenchmark: Sendable {
    /// Board side (rows = cols), even.
    public var size: Int
    public var seed: UInt64

    public init(size: Int, seed: UInt64 = 1) {
        self.size = size
        self.seed = seed
    }

    /// Median, fastest and slowest of one operation's timings.
    public struct Timing: Equatable, Sendable {
        public var medianNanos: UInt64
        public var minNanos: UInt64
        public var maxNanos: UInt64
        public var samples: Int

        init(_ nanos: [UInt64]) {
            let s = nanos.sorted()
            medianNanos = s[s.count / 2]
            minNanos = s[0]
            maxNanos = s[s.count - 1]
            samples = s.count
        }
    }

    public struct Result: Equatable, Sendable {
        /// Pieces in each of the two parts the drop merges.
        public var partPieces: Int
        public var mergeDrop: Timing
        public var grab: Timing
        public var dragStep: Timing
        public var dragStepOverCells: Timing
        public var dropIntoBoard: Timing
    }

    let player = PlayerID(1)

    /// `drops` timed drops of each kind (each on a room of its own) and
    /// `steps` timed grabs and drag steps of each kind.
    public func run(drops: Int = 21, steps: Int = 1001) throws -> Result {
        guard size >= 4, size % 2 == 0 else { throw BenchFailure("the parts benchmark needs an even board side, not \(size)") }
        let half = size / 2
        var merges: [UInt64] = [], intoBoard: [UInt64] = []
        for _ in 0..<drops {
            merges.append(try timeMergeDrop(half: half))
            intoBoard.append(try timeDropIntoBoard())
        }
        var grabs: [UInt64] = [], drags: [UInt64] = [], dragsOver: [UInt64] = []
        var room = try self.room(joined: true)
        let grip = 0
        var events: [RoomEvent] = []
        events.reserveCapacity(4)
        for i in 0..<steps {
            events.removeAll(keepingCapacity: true)
            let t0 = MonotonicClock.nowNanoseconds
            try room.perform(.grab(piece: grip), by: player, at: 1, into: &events)
            grabs.append(MonotonicClock.nowNanoseconds - t0)
            // On the table, a unit either way; then over the board, its cells or the next ones.
            let far = Point(x: i & 1, y: 0)
            let over = Point(x: room.geometry.boardOrigin.x + (i & 1), y: room.geometry.boardOrigin.y)
            drags.append(try timeDrag(&room, to: far, expectTarget: false))
            dragsOver.append(try timeDrag(&room, to: over, expectTarget: true))
            try room.perform(.release(piece: grip), by: player, at: 1, into: &events)
        }
        return Result(partPieces: half * half, mergeDrop: Timing(merges), grab: Timing(grabs), dragStep: Timing(drags),
                      dragStepOverCells: Timing(dragsOver), dropIntoBoard: Timing(intoBoard))
    }

    /// One drag step of the held part to `point`, timed; checked to have the
    /// drop target it should (over its cells: the grip's own).
    private func timeDrag(_ room: inout RoomState, to point: Point, expectTarget: Bool) throws -> UInt64 {
        var events: [RoomEvent] = []
        events.reserveCapacity(2)
        let t0 = MonotonicClock.nowNanoseconds
        let outcome = try room.perform(.drag(piece: 0, to: point), by: player, at: 1, into: &events)
        let t = MonotonicClock.nowNanoseconds - t0
        guard case .dragged(_, _, let target) = outcome, (target != nil) == expectTarget else {
            throw BenchFailure("drag of the part to \(point): \(outcome), expected \(expectTarget ? "a" : "no") target")
        }
        return t
    }

    /// The right part dropped one unit off its place beside the left one:
    /// timed, and checked to have merged them into one.
    private func timeMergeDrop(half: Int) throws -> UInt64 {
        var room = try self.room(joined: false)
        let grip = half  // row 0, column `half`: the right part's corner
        try room.perform(.grab(piece: grip), by: player, at: 1)
        try room.perform(.drag(piece: grip, to: Point(x: half * room.geometry.unit + 1, y: 1)), by: player, at: 1)
        var events: [RoomEvent] = []
        events.reserveCapacity(4)
        let t0 = MonotonicClock.nowNanoseconds
        try room.perform(.drop(piece: grip), by: player, at: 2, into: &events)
        let t = MonotonicClock.nowNanoseconds - t0
        guard events.contains(where: { if case .merged = $0.body { true } else { false } }),
              room.parts.size(with: 0) == 2 * half * half else {
            throw BenchFailure("the drop did not merge the two parts: \(events.map(\.body))")
        }
        return t
    }

    /// The one big part grabbed, dragged over its cells and dropped: the
    /// drop timed, and checked to have put it in and solved the puzzle.
    private func timeDropIntoBoard() throws -> UInt64 {
        var room = try self.room(joined: true)
        try room.perform(.grab(piece: 0), by: player, at: 1)
        try room.perform(.drag(piece: 0, to: room.geometry.boardOrigin), by: player, at: 1)
        var events: [RoomEvent] = []
        events.reserveCapacity(4)
        let t0 = MonotonicClock.nowNanoseconds
        try room.perform(.drop(piece: 0), by: player, at: 2, into: &events)
        let t = MonotonicClock.nowNanoseconds - t0
        guard room.isSolved, room.parts.isEmpty else { throw BenchFailure("the part did not go into the board: \(events.map(\.body))") }
        return t
    }

    /// The room described above, with one player in it: rows `size/2` and
    /// down in their cells; the rows above on the table at its top edge, as
    /// one part from the left edge (`joined`) or as two, the left half at the
    /// left edge and the right half at the right edge.
    func room(joined: Bool) throws -> RoomState {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: size, cols: size)
        let settings = RoomSettings(first: spec, seed: seed)
        let g = RoomState(settings: settings).geometry
        let half = size / 2, u = g.unit
        var pieces: [PieceState] = []
        pieces.reserveCapacity(size * size)
        for p in 0..<(size * size) {
            let r = p / size, c = p % size
            if r >= half {
                pieces.append(PieceState(location: .board(Cell(row: r, col: c)), rotation: 0))
            } else if joined || c < half {
                pieces.append(PieceState(location: .table(Point(x: c * u, y: r * u)), rotation: 0))
            } else {
                pieces.append(PieceState(location: .table(Point(x: g.width - (size - c) * u, y: r * u)), rotation: 0))
            }
        }
        let top = (0..<half).flatMap { r in (0..<size).map { r * size + $0 } }
        let parts = joined ? [top] : [top.filter { $0 % size < half }, top.filter { $0 % size >= half }]
        var room = try RoomState(settings: settings, puzzleIndex: 0, spec: spec, pieces: pieces, parts: parts, locks: [:],
                                 players: [:], seq: 0, elapsed: 0, clockRunning: false, solveMillis: nil, now: 0)
        try room.perform(.join(name: "bench"), by: player, at: 0)
        return room
    }
}
