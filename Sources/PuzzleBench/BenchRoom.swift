import PuzzleCore

/// A room the bots play in, with what the bench tracks about it.
///
/// Every member receives the same sequenced event lines, so the room keeps
/// ONE reference mirror (the JOIN snapshot plus every sequenced event,
/// applied once, from whichever bot receives it first) instead of one per
/// bot. Each bot's view is proven equal to it: its JOIN snapshot's digest
/// equals the reference's digest at that snapshot's seq, and every event line
/// it receives afterwards has seq exactly one past its last and the same hash
/// as the line the reference applied for that seq. At the end the reference
/// is compared with the server's DIGEST as seen by every bot.
final class BenchRoom {
    let name: String
    @exclusivity(unchecked) var members: [Int] = []
    /// Pieces a bot of this bench has asked to grab or holds: other bots
    /// leave them alone, so HELD refusals come only from others' players or
    /// from a mirror one event behind.
    @exclusivity(unchecked) var claimed = Set<Int>()
    /// The highest puzzle index seen solved, so each solve is counted once.
    @exclusivity(unchecked) var lastSolved = -1
    @exclusivity(unchecked) var solveMillis: [Int64] = []

    /// The room as the bench has verified it; nil until the first snapshot
    /// and after an event that could not be applied (then `broken`).
    @exclusivity(unchecked) var reference: RoomState?
    @exclusivity(unchecked) var broken = false
    /// Hash of the sequenced event line with each seq (the index); 0 while
    /// no member has received it.
    @exclusivity(unchecked) var lineHashes: [UInt64] = []
    /// Lines received ahead of the reference (a bot that joined later than
    /// the one the reference follows), and while joining every line, so the
    /// reference can be rebuilt from an earlier snapshot.
    @exclusivity(unchecked) var storedLines: [UInt64: [UInt8]] = [:]
    /// Bots are still joining: snapshots may come in any order.
    @exclusivity(unchecked) var joining = true
    /// While joining: the reference's digest at each seq it has been at.
    @exclusivity(unchecked) var digests: [UInt64: StateDigest] = [:]
    /// Snapshot digests (by bot; -1 for an abandoned reference) waiting for
    /// the reference to reach their seq.
    @exclusivity(unchecked) var pendingSnapshots: [UInt64: [(bot: Int, digest: StateDigest)]] = [:]
    /// The reference's digest at the end, computed once for all members.
    @exclusivity(unchecked) private var digestCache: (seq: UInt64, digest: StateDigest)?

    init(name: String) { self.name = name }

    /// The reference's sequence number, or -1 without one; kept beside it so
    /// the per-event path never reads the (large) reference itself.
    @exclusivity(unchecked) private(set) var referenceSeq = -1

    /// Replaces the reference (a snapshot, or nil when it broke).
    func setReference(_ state: RoomState?) {
        reference = state
        referenceSeq = state.map { Int($0.seq) } ?? -1
    }

    /// Applies one sequenced event to the reference, in place.
    func apply(_ event: RoomEvent) throws(PuzzleError) {
        try reference?.apply(event)
        referenceSeq = Int(event.seq)
    }

    /// Runs `body` on the reference, moved out and back rather than copied
    /// (reading a struct held by a class copies it: hundreds of bytes and a
    /// retain per field). `body` must not touch `reference`.
    @inline(__always)
    func withReference<R>(_ body: (borrowing RoomState) -> R) -> R? {
        guard let state = reference.take() else { return nil }
        let result = body(state)
        reference = consume state
        return result
    }

    /// The reference's digest, computed once per seq.
    var referenceDigest: StateDigest? {
        guard referenceSeq >= 0 else { return nil }
        if let c = digestCache, c.seq == UInt64(referenceSeq) { return c.digest }
        guard let d = withReference({ $0.digest }) else { return nil }
        digestCache = (UInt64(referenceSeq), d)
        return d
    }

    /// Records `hash` for line `seq`; false when another member received a
    /// different line with that seq.
    @inline(__always)
    func recordLine(seq: Int, hash: UInt64) -> Bool {
        while lineHashes.count <= seq { lineHashes.append(0) }  // amortised growth
        let known = lineHashes[seq]
        if known == 0 {
            lineHashes[seq] = hash
            return true
        }
        return known == hash
    }

    /// Whether the reference has applied every line a member received and
    /// every snapshot has been compared.
    var caughtUp: Bool {
        guard !broken else { return true }
        return pendingSnapshots.isEmpty && lineHashes.count <= referenceSeq + 1
    }

    /// Bots have all joined: keep only lines still ahead of the reference.
    func endJoining() {
        joining = false
        digests = [:]
        let seq = UInt64(max(referenceSeq, 0))
        storedLines = storedLines.filter { $0.key > seq }
    }
}

/// A 64-bit hash of a line's bytes, eight bytes a step: each step is a
/// bijection of the running value, so two lines of one length that differ in
/// one step cannot collide. Never 0 (0 marks "not seen").
@inline(__always)
func lineHash(_ base: UnsafeRawPointer, _ count: Int) -> UInt64 {
    let prime: UInt64 = 0x100000001b3
    var h: UInt64 = 0xcbf29ce484222325 ^ UInt64(truncatingIfNeeded: count)
    var i = 0
    while i + 8 <= count {
        h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* prime
        h ^= h >> 29
        i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < count {
        tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
        shift += 8
        i += 1
    }
    h = (h ^ tail) &* prime
    h ^= h >> 32
    return h | 1
}
