/// A log-linear latency histogram in the style of HdrHistogram: values below
/// 128 get a bucket each; above, every power-of-two range is split into 64
/// equal buckets, so any recorded value is known to within 1/64 (< 1.6%) and
/// typically 0.8%. Recording is a few integer operations and no allocation.
///
/// Values are unsigned integers; the load test records microseconds.
public struct LatencyHistogram: Sendable, Equatable {
    /// Linear buckets below this value; the log-linear part starts here.
    static let linearLimit: UInt64 = 128
    static let subBuckets = 64
    /// Enough buckets for any UInt64.
    static let bucketCount = Int(linearLimit) + (64 - 7) * subBuckets

    public private(set) var counts: [UInt64]
    public private(set) var count: UInt64 = 0
    public private(set) var min: UInt64 = .max
    public private(set) var max: UInt64 = 0
    /// Sum of recorded values, for the mean (wraps only beyond 2^64).
    public private(set) var sum: UInt64 = 0

    public init() {
        counts = [UInt64](repeating: 0, count: Self.bucketCount)
    }

    @inline(__always)
    static func index(of value: UInt64) -> Int {
        if value < linearLimit { return Int(value) }
        // Shift so that the top seven bits remain: 64...127.
        let shift = (64 - value.leadingZeroBitCount) - 7
        let top = Int(value >> UInt64(shift))
        return Int(linearLimit) + (shift - 1) * subBuckets + (top - subBuckets)
    }

    /// The smallest and largest value that land in bucket `index`.
    static func range(of index: Int) -> ClosedRange<UInt64> {
        if index < Int(linearLimit) { return UInt64(index)...UInt64(index) }
        let shift = (index - Int(linearLimit)) / subBuckets + 1
        let top = UInt64((index - Int(linearLimit)) % subBuckets + subBuckets)
        let low = top << UInt64(shift)
        return low...(low + ((1 << UInt64(shift)) - 1))
    }

    @inline(__always)
    public mutating func record(_ value: UInt64) {
        counts[Self.index(of: value)] &+= 1
        count &+= 1
        sum &+= value
        if value < min { min = value }
        if value > max { max = value }
    }

    public mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        for i in counts.indices { counts[i] &+= other.counts[i] }
        count &+= other.count
        sum &+= other.sum
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    /// The value at quantile `q` (0...1): the top of the bucket holding the
    /// `ceil(q * count)`-th smallest value, capped at the exact maximum, so a
    /// percentile is never reported below the true one by more than a bucket.
    public func value(atQuantile q: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = Swift.max(1, UInt64((q * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            seen += c
            if seen >= rank { return Swift.min(Self.range(of: i).upperBound, max) }
        }
        return max
    }

    public var mean: Double { count == 0 ? 0 : Double(sum) / Double(count) }
}
