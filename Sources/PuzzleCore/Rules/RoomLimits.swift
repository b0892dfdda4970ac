/// The ranges a room's recorded values must lie in. Snapshots and journals
/// come from disk or from another machine; a value outside these ranges is
/// refused as damage instead of being carried into arithmetic that would trap.
///
/// Every bound leaves room for the sums the rules compute (a clock plus a
/// lease, a start plus an elapsed time), so that a value accepted here cannot
/// overflow later.
public enum RoomLimits {
    /// Longest duration recorded: elapsed and solve times, hint and lease
    /// remainders. 2^45 ms is about 1,100 years.
    public static let maxDurationMillis: Int64 = 1 << 45
    /// Largest sequence number; a room would need 2^62 events to reach it.
    public static let maxSeq: UInt64 = 1 << 62
    /// Largest puzzle index in a room's sequence.
    public static let maxPuzzleIndex = 1_000_000_000
    /// Largest piece number a snapshot may name (requests take the same range).
    public static let maxPieceIndex = 1_000_000
    /// Lease of a hold, as a server may configure it (config and CREATE).
    public static let leaseMillis: ClosedRange<Int64> = 1...3_600_000
    /// Hint duration, as a server may configure it (config and CREATE).
    public static let hintMillis: ClosedRange<Int64> = 0...600_000
    /// Player ids a server hands out (and a file may record).
    public static let playerIDs: ClosedRange<Int> = 1...(1 << 40)
    /// A player's move counters (one drop is one move; 2^50 is out of reach).
    public static let moves: ClosedRange<Int> = 0...(1 << 50)
    /// Colour slots (there are never more present players than ids).
    public static let colorSlots: ClosedRange<Int> = 0...(1 << 40)
    /// Pieces one player may hold.
    public static let maxHeld: ClosedRange<Int> = 1...100
}

extension Int64 {
    /// `self + other`, or the nearest bound when the sum does not fit.
    @inlinable
    public func clampedAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, or the nearest bound when the difference does not fit.
    @inlinable
    public func clampedSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }
}
