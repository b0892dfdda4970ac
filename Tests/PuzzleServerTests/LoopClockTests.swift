@testable import PuzzleServer
import Testing

/// The loop's clock alone: the turn's time, uptime and the sweep's schedule.
@Suite struct LoopClockTests {
    /// Ticks `clock` to each time and takes the sweep if due: which were.
    static func sweeps(_ clock: inout LoopClock, at times: [Int64]) -> [Bool] {
        times.map { time in
            clock.tick(at: time)
            return clock.takeSweep()
        }
    }

    @Test func sweepsOnceASecondCountedFromTheLastSweep() {
        var clock = LoopClock(startingAt: 5_000)
        #expect(clock.nextSweep == 6_000)
        #expect(Self.sweeps(&clock, at: [5_000, 5_999, 6_250, 6_250]) == [false, false, true, false])
        // The next is a second after the one taken, not after the one due.
        #expect(clock.nextSweep == 7_250)
        #expect(Self.sweeps(&clock, at: [7_249, 7_250, 9_000]) == [false, true, true])
    }

    @Test func uptimeCountsWholeSecondsFromTheStart() {
        var clock = LoopClock(startingAt: 1_000)
        #expect(clock.uptimeSeconds == 0)
        clock.tick(at: 2_999)
        #expect(clock.uptimeSeconds == 1)
        #expect(clock.now == 2_999)
        #expect(clock.startedAt == 1_000)
    }
}
