/// A puzzle's clock: play time on the current puzzle, in room-clock
/// milliseconds. Pure: the time is always passed in.
///
/// Paused (an empty room, or solved): `runningSince` is nil and `base` is the
/// play time. Running: `base` is 0 and `runningSince` is the room-clock moment
/// from which the play time counts, so that equal clocks are equal values.
/// When it runs (while someone is in the room) is the room's rule; the clock
/// only keeps time, and stands still once its puzzle is solved.
public struct PuzzleClock: Hashable, Sendable {
    public private(set) var base: Int64
    public private(set) var runningSince: Int64?
    /// Play time from the puzzle's start to its solve, once solved.
    public private(set) var solveMillis: Int64?

    /// A clock at zero, paused, its puzzle not solved.
    public init() {
        base = 0
        runningSince = nil
        solveMillis = nil
    }

    /// A clock as recorded: at `elapsed` and running from `now` if `running`;
    /// a solved puzzle's clock stands at its solve time.
    init(elapsed: Int64, running: Bool, solveMillis: Int64?, now: Int64) {
        self.solveMillis = solveMillis
        if running && solveMillis == nil {
            base = 0
            runningSince = now.clampedSubtracting(elapsed)
        } else {
            base = solveMillis ?? elapsed
            runningSince = nil
        }
    }

    public var isRunning: Bool { runningSince != nil }
    public var isSolved: Bool { solveMillis != nil }

    /// Play time at room clock `now` (never negative; a `now` before the clock
    /// last started counts as that start).
    public func elapsed(at now: Int64) -> Int64 {
        guard let since = runningSince else { return base }
        return base.clampedAdding(max(0, now.clampedSubtracting(since)))
    }

    /// Starts the clock at `time`, unless it runs already or its puzzle is solved.
    mutating func start(at time: Int64) {
        guard runningSince == nil, solveMillis == nil else { return }
        runningSince = time.clampedSubtracting(base)
        base = 0
    }

    /// Stops the clock at `time`, keeping its play time.
    mutating func pause(at time: Int64) {
        base = elapsed(at: time)
        runningSince = nil
    }

    /// Stops the clock for good at the solve time `elapsed` (the server's, which
    /// a mirror takes rather than its own).
    mutating func solve(elapsed: Int64) {
        solveMillis = elapsed
        base = elapsed
        runningSince = nil
    }

    /// Zero again for a new puzzle, running from `time` if `running`.
    mutating func restart(at time: Int64, running: Bool) {
        solveMillis = nil
        base = 0
        runningSince = running ? time : nil
    }

    /// Sets the clock as its server reports it: `elapsed` play time at `now`,
    /// running or paused. A solved puzzle's clock stands at its solve.
    mutating func adopt(elapsed: Int64, running: Bool, at now: Int64) {
        guard solveMillis == nil else { return }
        if running {
            base = 0
            runningSince = now.clampedSubtracting(max(0, elapsed))
        } else {
            base = max(0, elapsed)
            runningSince = nil
        }
    }
}
