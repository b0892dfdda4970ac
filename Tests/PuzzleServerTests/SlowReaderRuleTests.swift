import Testing
@testable import PuzzleServer

/// The slow-reader rule's decisions at their edges (the behaviour over real
/// sockets is `ServerSlowReaderTests`).
@Suite struct SlowReaderRuleTests {
    let rule = SlowReaderRule(softLimit: 100, hardLimit: 1000, graceMillis: 50)

    @Test func onlyAStalledReaderOverTheSoftLimitHasItsDragsCoalesced() {
        #expect(rule.coalescesDrags(queuedBytes: 101, socketFull: true))
        #expect(!rule.coalescesDrags(queuedBytes: 100, socketFull: true))
        #expect(!rule.coalescesDrags(queuedBytes: 5000, socketFull: false))
    }

    @Test func theHardLimitDisconnectsAtOnceAndTheSoftLimitAfterItsGrace() {
        #expect(rule.judge(queuedBytes: 100, overSoftSince: 7, now: 10_000) == .underSoftLimit)
        #expect(rule.judge(queuedBytes: 1001, overSoftSince: nil, now: 0) == .disconnect("output queue over 1000 bytes"))
        #expect(rule.judge(queuedBytes: 101, overSoftSince: nil, now: 20) == .overSoftLimit(since: 20))
        #expect(rule.judge(queuedBytes: 101, overSoftSince: 20, now: 70) == .overSoftLimit(since: 20))
        #expect(rule.judge(queuedBytes: 101, overSoftSince: 20, now: 71) == .disconnect("reader too slow for 50 ms"))
        #expect(rule.graceEnds(since: 20) == 71)
    }
}
