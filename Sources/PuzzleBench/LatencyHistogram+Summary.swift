/// The figures a report shows for one latency distribution, in microseconds.
public struct LatencySummary: Equatable, Sendable {
    public var count: UInt64
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var p999: UInt64
    public var max: UInt64
    public var mean: Double
}

extension LatencyHistogram {
    public var summary: LatencySummary {
        LatencySummary(count: count, p50: value(atQuantile: 0.5), p90: value(atQuantile: 0.9),
                       p99: value(atQuantile: 0.99), p999: value(atQuantile: 0.999), max: count == 0 ? 0 : max, mean: mean)
    }

    /// A small text histogram: one bar per power-of-ten-ish band of latency
    /// (bands chosen from the data's range), bar length proportional to count.
    public func textBars(width: Int = 40) -> [String] {
        guard count > 0 else { return ["  (no samples)"] }
        // Band edges in microseconds: 1-2-5 steps from 10 µs to 10 s.
        var edges: [UInt64] = []
        var decade: UInt64 = 10
        while decade <= 10_000_000 {
            edges += [decade, decade * 2, decade * 5]
            decade *= 10
        }
        var bands: [(label: String, count: UInt64)] = []
        var lower: UInt64 = 0
        var i = 0
        for upper in edges + [UInt64.max] {
            var c: UInt64 = 0
            while i < counts.count && Self.range(of: i).lowerBound < upper {
                c += counts[i]
                i += 1
            }
            let label = upper == .max ? "≥\(Self.format(lower))" : "<\(Self.format(upper))"
            bands.append((label, c))
            lower = upper
            if i >= counts.count { break }
        }
        guard let first = bands.firstIndex(where: { $0.count > 0 }),
              let last = bands.lastIndex(where: { $0.count > 0 }) else { return [] }
        let peak = bands[first...last].map(\.count).max() ?? 1
        return bands[first...last].map { band in
            let n = Int((Double(band.count) / Double(peak) * Double(width)).rounded(.up))
            let pct = Double(band.count) * 100 / Double(count)
            let label = band.label.padding(toLength: 8, withPad: " ", startingAt: 0)
            let bar = String(repeating: "#", count: n).padding(toLength: width, withPad: " ", startingAt: 0)
            return "  \(label) \(bar) \(Self.percent(pct))"
        }
    }

    /// "850us", "1.2ms", "3s".
    static func format(_ us: UInt64) -> String {
        if us < 1000 { return "\(us)us" }
        if us < 1_000_000 {
            let ms = Double(us) / 1000
            return ms < 10 && us % 1000 != 0 ? "\(Double(Int(ms * 10)) / 10)ms" : "\(Int(ms))ms"
        }
        return "\(us / 1_000_000)s"
    }

    static func percent(_ p: Double) -> String {
        let tenths = Int((p * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
