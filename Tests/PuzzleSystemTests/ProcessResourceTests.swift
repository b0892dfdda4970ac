import Testing
@testable import PuzzleSystem

@Suite struct ProcessResourceTests {
    @Test func openFileLimitIsRaisedButNeverPastHard() throws {
        let (soft, hard) = try ResourceLimits.openFileLimit()
        #expect(soft <= hard)
        let raised = try ResourceLimits.raiseOpenFileLimit(to: UInt64.max)
        #expect(raised >= soft)
        #expect(raised <= hard)
        #expect(try ResourceLimits.openFileLimit().soft == raised)
        // Asking for less never lowers it.
        #expect(try ResourceLimits.raiseOpenFileLimit(to: 1) == raised)
    }

    @Test func residentSizeIsPlausible() throws {
        let bytes = try ProcessStats.residentBytes()
        #expect(bytes > 1 << 20)
        #expect(bytes < 1 << 40)
    }

    @Test func cpuTimeGrowsWithWork() throws {
        let before = try ProcessStats.cpuSeconds()
        #expect(before >= 0)
        var spin: UInt64 = 0
        let deadline = MonotonicClock.nowMilliseconds + 10_000
        var after = before
        while after <= before, MonotonicClock.nowMilliseconds < deadline {
            for i in 0..<100_000 { spin = spin &+ UInt64(i) &* 2_654_435_761 }
            after = try ProcessStats.cpuSeconds()
        }
        #expect(after > before, "spin \(spin)")
    }
}
