/// Plays a puzzle's replay back at a chosen speed: which moves are on the
/// board at a given moment. Pure: the clock (`now`, milliseconds of any
/// monotonic clock) is passed in, so a test steps it at will.
///
/// The replay's own times are the puzzle clock's, but a long pause in play
/// (everyone thinking, or away) would be a long wait in the playback: each
/// gap between two moves counts at most `maxGap` before the speed applies.
public struct ReplayPlayback: Hashable, Sendable {
    /// The speeds offered, slowest first.
    public static let speeds = [1, 2, 4, 8, 16, 32, 64]
    /// Longest wait between two moves, at 1x, in milliseconds.
    public static let maxGap: Int64 = 2_000

    public let replay: PuzzleReplay
    /// The board with the first `shown` moves applied.
    public private(set) var state: RoomState
    /// How many moves are on the board.
    public private(set) var shown = 0
    /// Times one replayed millisecond passes in (1: as played).
    public private(set) var speed: Int
    public private(set) var paused = false
    /// Where the playback is on its own timeline (gaps capped), in ms.
    public private(set) var position: Int64 = 0
    /// Each move's moment on that timeline.
    let due: [Int64]
    /// The board before the first move (for going back to it).
    let start: RoomState
    /// The clock reading `position` was last brought up to.
    var lastNow: Int64

    /// Starts at the puzzle's beginning at `now`, playing at `speed` (the
    /// nearest offered speed at or below it). `colorSlots`: the colours the
    /// players have where the replay is watched (the live room's), kept so
    /// that a player looks the same in both; the others take the lowest
    /// free slots, in the order of their first move.
    public init(_ replay: PuzzleReplay, speed: Int = 4, now: Int64, colorSlots: [PlayerID: Int] = [:]) {
        self.replay = replay
        // The players are in the room from the start, so that each move
        // counts for its mover as it is shown (a panel reads their moves).
        var state = replay.startState()
        var taken = Set(replay.players.compactMap { colorSlots[$0.id] })
        for p in replay.players {
            state.applyUnchecked(RoomEvent(seq: state.seq + 1, time: 0, body: .joined(p.id, name: p.name)))
            var slot = colorSlots[p.id]
            if slot == nil {
                slot = (0...).first { !taken.contains($0) }
                taken.insert(slot!)
            }
            state.roster.setColorSlot(slot!, of: p.id)
        }
        self.state = state
        start = state
        self.speed = Self.speeds.last { $0 <= max(1, speed) } ?? 1
        lastNow = now
        var due: [Int64] = []
        due.reserveCapacity(replay.moves.count)
        var at: Int64 = 0, previous: Int64 = 0
        for move in replay.moves {
            // Clocks out of order (damaged records) count as no gap.
            at += min(max(0, move.elapsed - previous), Self.maxGap)
            previous = max(previous, move.elapsed)
            due.append(at)
        }
        self.due = due
    }

    /// Whether every kept move is on the board.
    public var isFinished: Bool { shown == replay.moves.count }

    /// The latest move on the board, if any.
    public var lastMove: ReplayMove? { shown > 0 ? replay.moves[shown - 1] : nil }

    /// The puzzle clock the board shows: the latest shown move's time (the
    /// solve time once finished).
    public var elapsedShown: Int64 {
        if isFinished, let solved = replay.solvedMillis { return solved }
        return lastMove?.elapsed ?? 0
    }

    /// The board to draw at `now`: `state` (the replay's players in it, each
    /// with its colour slot in the order of their first move, and their moves
    /// so far), the latest move's piece lifted in its mover's hand until the
    /// end (a ring of their colour and their name, as a held piece is drawn;
    /// not listed as held by them) and the clock at the latest move's time.
    public func shownState(now: Int64) -> RoomState {
        var st = state
        if !isFinished, let move = lastMove, (0..<st.pieceCount).contains(move.piece) {
            st.applyUnchecked(RoomEvent(seq: st.seq + 1, time: now, body: .grabbed(piece: move.piece, by: move.player)))
            st.roster.dropHoldings(of: move.player)
        }
        st.adoptClock(elapsed: elapsedShown, running: false, at: now)
        return st
    }

    /// Brings the board up to `now`: every move due by then is applied.
    public mutating func advance(to now: Int64) {
        let passed = max(0, now - lastNow)
        lastNow = max(lastNow, now)
        guard !paused else { return }
        position += passed * Int64(speed)
        while shown < due.count, due[shown] <= position { stepOne() }
    }

    /// When the next move is due on the clock (nil: paused or finished).
    public func nextDue() -> Int64? {
        guard !paused, shown < due.count else { return nil }
        let wait = max(0, due[shown] - position)
        return lastNow + (wait + Int64(speed) - 1) / Int64(speed)
    }

    /// Pauses, or plays on from where it paused.
    public mutating func togglePause(now: Int64) {
        advance(to: now)
        paused.toggle()
    }

    /// The next offered speed up (`faster`) or down, from `now` on.
    public mutating func changeSpeed(faster: Bool, now: Int64) {
        advance(to: now)
        let i = Self.speeds.firstIndex(of: speed) ?? 0
        speed = Self.speeds[max(0, min(Self.speeds.count - 1, i + (faster ? 1 : -1)))]
    }

    /// Back to the start, before the first move: paused (to step through
    /// the moves, or play on), or playing.
    public mutating func rewind(now: Int64, paused: Bool = true) {
        state = start
        shown = 0
        position = 0
        lastNow = now
        self.paused = paused
    }

    /// Shows the next move at once and pauses there (a frame step); the
    /// timeline jumps to it.
    public mutating func step(now: Int64) {
        advance(to: now)
        paused = true
        guard shown < due.count else { return }
        position = max(position, due[shown])
        stepOne()
    }

    /// Shows every move at once: the end of the replay.
    public mutating func skipToEnd(now: Int64) {
        advance(to: now)
        while shown < due.count { stepOne() }
        position = max(position, due.last ?? 0)
    }

    private mutating func stepOne() {
        replay.apply(move: shown, to: &state)
        shown += 1
    }
}
