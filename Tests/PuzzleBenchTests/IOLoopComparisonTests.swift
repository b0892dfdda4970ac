import Testing
@testable import PuzzleBench

/// Correctness of the io-compare relays and driver, not their speed: a short
/// run of each variant must bring every line to every member exactly once.
@Suite(.serialized) struct IOLoopComparisonTests {
    @Test(arguments: IOLoopVariant.allCases)
    func everyLineReachesEveryMember(variant: IOLoopVariant) throws {
        let r = try IOLoopComparison.run(variant, members: 10, rate: 2_000, seconds: 1, warmup: 0.2, window: 512)
        #expect(r.totalLinesSent > 1_000, "\(r.row)")
        #expect(r.unexpectedLines == 0, "\(r.row)")
        #expect(r.totalDeliveries == r.totalLinesSent * 10, "\(r.row)")
        #expect(r.linesRelayed == r.totalLinesSent, "\(r.row)")
        #expect(r.complete)
        // The window counts are part of the totals, with one latency sample each.
        #expect(r.deliveries > 0 && r.deliveries <= r.totalDeliveries)
        #expect(r.latency.count == UInt64(r.deliveries))
        #expect(r.seconds >= 0.9 && r.seconds < 2)
    }

    @Test(arguments: IOLoopVariant.allCases)
    func maxRateStaysWithinTheWindowAndCompletes(variant: IOLoopVariant) throws {
        let r = try IOLoopComparison.run(variant, members: 10, rate: nil, seconds: 1, warmup: 0, window: 64)
        #expect(r.complete, "\(r.row)")
        #expect(r.totalLinesSent > 64, "\(r.row)")
    }

    @Test func optionsParseListsAndMax() throws {
        let o = try #require(try IOLoopOptions.parse(["--members", "10,100", "--rate", "max,20000", "--seconds", "2", "--runs", "3"]))
        #expect(o.members == [10, 100])
        #expect(o.rates == [nil, 20_000])
        #expect(o.seconds == 2 && o.runs == 3)
        #expect(try IOLoopOptions.parse(["--help"]) == nil)
        #expect(throws: IOLoopOptions.ParseError.self) { try IOLoopOptions.parse(["--rate", "fast"]) }
        #expect(throws: IOLoopOptions.ParseError.self) { try IOLoopOptions.parse(["--variants", "kqueue"]) }
    }

    @Test func linesAreAboutFortyBytesAndCarryTheirSequence() {
        var out: [UInt8] = []
        IOLoopLoadDriver.appendLine(seq: 123_456, member: 42, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "EV 123456 m42 dragged 17 4 40 52 3,4\n")
    }
}
