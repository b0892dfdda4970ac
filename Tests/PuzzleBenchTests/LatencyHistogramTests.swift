import Testing
@testable import PuzzleBench

@Suite struct LatencyHistogramTests {
    @Test func bucketsTileTheValuesWithoutGapsOrOverlap() {
        var expectedLow: UInt64 = 0
        for i in 0..<LatencyHistogram.bucketCount {
            let r = LatencyHistogram.range(of: i)
            #expect(r.lowerBound == expectedLow, "bucket \(i) starts at \(r.lowerBound)")
            #expect(LatencyHistogram.index(of: r.lowerBound) == i)
            #expect(LatencyHistogram.index(of: r.upperBound) == i)
            if r.upperBound == .max { break }
            expectedLow = r.upperBound + 1
        }
        #expect(LatencyHistogram.index(of: .max) == LatencyHistogram.bucketCount - 1)
    }

    @Test func bucketsAreWithinTwoPercent() {
        for v: UInt64 in [1, 127, 128, 129, 1000, 12_345, 999_999, 123_456_789] {
            let r = LatencyHistogram.range(of: LatencyHistogram.index(of: v))
            #expect(r.contains(v))
            #expect(Double(r.upperBound - r.lowerBound) <= Double(v) * 0.016, "bucket of \(v) is \(r)")
        }
    }

    @Test func percentilesOfAUniformSpread() {
        var h = LatencyHistogram()
        for v in 1...10_000 { h.record(UInt64(v)) }
        let s = h.summary
        #expect(s.count == 10_000)
        #expect(s.max == 10_000)
        #expect(abs(Double(s.p50) - 5000) <= 5000 * 0.016)
        #expect(abs(Double(s.p90) - 9000) <= 9000 * 0.016)
        #expect(abs(Double(s.p99) - 9900) <= 9900 * 0.016)
        #expect(s.p999 >= 9990 && s.p999 <= 10_000)
        #expect(abs(s.mean - 5000.5) < 0.001)
    }

    @Test func aSingleOutlierShowsOnlyAtTheTop() {
        var h = LatencyHistogram()
        for _ in 0..<999 { h.record(100) }
        h.record(50_000)
        #expect(h.value(atQuantile: 0.99) == 100)
        #expect(h.value(atQuantile: 0.999) == 100)
        #expect(h.value(atQuantile: 1) == 50_000)
        #expect(h.summary.max == 50_000)
    }

    @Test func mergeAddsCounts() {
        var a = LatencyHistogram(), b = LatencyHistogram()
        a.record(10); b.record(20); b.record(30)
        a.merge(b)
        #expect(a.count == 3)
        #expect(a.min == 10 && a.max == 30)
        #expect(a.sum == 60)
    }

    @Test func textBarsCoverEverySample() {
        var h = LatencyHistogram()
        for v in [50, 150, 150, 3000, 3000, 3000] { h.record(UInt64(v)) }
        let bars = h.textBars(width: 10)
        #expect(bars.contains { $0.contains("<100us") && $0.contains("16.7%") })
        #expect(bars.contains { $0.contains("<200us") && $0.contains("33.3%") })
        #expect(bars.contains { $0.contains("<5ms") && $0.contains("##########") && $0.contains("50.0%") })
        #expect(LatencyHistogram().textBars() == ["  (no samples)"])
    }
}
