import Testing
@testable import PuzzleServer

/// The one token bucket behind drag, chat and password pacing.
@Suite struct TokenBucketTests {
    @Test func aFullBucketGivesItsBurstThenWaitsForTheRefill() {
        var bucket = TokenBucket(capacity: 3, perSecond: 2, now: 0)
        for _ in 0..<3 { #expect(bucket.take(at: 0) == nil) }
        // Two a second: the next token is 500 ms away, and taking nothing meanwhile.
        #expect(bucket.take(at: 0) == 500)
        #expect(bucket.take(at: 200) == 300)
        #expect(bucket.take(at: 500) == nil)
        #expect(bucket.take(at: 500) == 500)
    }

    @Test func itNeverHoldsMoreThanItsCapacity() {
        var bucket = TokenBucket(capacity: 2, perSecond: 1000, now: 0)
        #expect(bucket.take(at: 0) == nil && bucket.take(at: 0) == nil)
        #expect(bucket.isFull(at: 10_000) && bucket.available(at: 10_000) == 2)
        for _ in 0..<2 { #expect(bucket.take(at: 10_000) == nil) }
        #expect(bucket.take(at: 10_000) == 1)
    }

    @Test func spendingGoesNoLowerThanEmpty() {
        var bucket = TokenBucket(capacity: 1, tokensPerMilli: 1.0 / 1000, now: 0)
        bucket.spend(at: 0)
        bucket.spend(at: 0)
        #expect(bucket.available(at: 0) == 0)
        #expect(bucket.wait(at: 0) == 1000)
        #expect(bucket.wait(at: 999) == 1 && bucket.wait(at: 1000) == nil)
    }

    @Test func aBucketThatNeverRefillsWaitsForever() {
        var bucket = TokenBucket(capacity: 1, perSecond: 0, now: 0)
        #expect(bucket.take(at: 0) == nil)
        #expect(bucket.take(at: 1_000_000) == .max)
    }
}
