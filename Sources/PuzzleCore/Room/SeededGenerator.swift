/// A small, fast, seeded random number generator (SplitMix64).
///
/// Every game is built from a seed so that it can be replayed exactly; nothing in
/// the core ever uses the system generator.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Derives an independent seed from a parent seed and an index (a puzzle's
    /// position in its room's sequence, say), so sub-games never share streams.
    public static func derive(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var g = SeededGenerator(seed: seed ^ (index &* 0xD6E8_FEB8_6659_FD93))
        _ = g.next()
        return g.next()
    }
}
