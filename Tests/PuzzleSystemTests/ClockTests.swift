import Testing
import PuzzleSystem

@Suite struct ClockTests {
    @Test func monotonicClockAdvancesAndUnitsAgree() {
        let nanos = MonotonicClock.nowNanoseconds
        let millis = MonotonicClock.nowMilliseconds
        #expect(millis >= Int64(nanos / 1_000_000))
        #expect(millis - Int64(nanos / 1_000_000) < 10_000)
        var previous = MonotonicClock.nowNanoseconds
        for _ in 0..<1000 {
            let now = MonotonicClock.nowNanoseconds
            #expect(now >= previous)
            previous = now
        }
    }

    @Test func wallClockFormatsKnownInstants() {
        #expect(WallClock.timestamp(millisecondsSinceEpoch: 0) == "1970-01-01T00:00:00.000Z")
        #expect(WallClock.timestamp(millisecondsSinceEpoch: 1_714_566_896_789) == "2024-05-01T12:34:56.789Z")
        #expect(WallClock.timestamp(millisecondsSinceEpoch: -1) == "1969-12-31T23:59:59.999Z")
    }

    @Test func wallClockNowLooksLikeATimestamp() {
        let text = Array(WallClock.timestamp().utf8)
        #expect(text.count == 24)
        #expect(text[10] == UInt8(ascii: "T"))
        #expect(text[19] == UInt8(ascii: "."))
        #expect(text.last == UInt8(ascii: "Z"))
        #expect(WallClock.nowMilliseconds > 1_700_000_000_000)
    }
}
