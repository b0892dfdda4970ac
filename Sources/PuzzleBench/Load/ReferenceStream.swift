import PuzzleCore
import PuzzleProtocol

/// Told what the room's reference applied that changes how its bots play.
protocol ReferenceStreamObserver: AnyObject {
    /// The puzzle was solved: every hold in room `room` ended, whether or not
    /// its holder has read the event yet.
    func puzzleSolved(inRoom room: Int)
    /// The room's next puzzle started.
    func nextPuzzleStarted(inRoom room: Int)
}

/// One room's reference mirror and the proof that every member sees the same
/// room.
///
/// Every member receives the same sequenced event lines, so the room keeps
/// ONE reference mirror (the JOIN snapshot plus every sequenced event,
/// applied once, from whichever bot receives it first) instead of one per
/// bot. Each bot's view is proven equal to it: its JOIN snapshot's digest
/// equals the reference's digest at that snapshot's seq, and every event line
/// it receives afterwards has seq exactly one past its last and the same hash
/// as the line the reference applied for that seq. At the end the reference
/// is compared with the server's DIGEST as seen by every bot (`EndChecks`).
///
/// Drags are not sequenced and never come here.
final class ReferenceStream {
    let name: String
    /// The room's index in the load test.
    let room: Int
    let clock: RunClock
    let tally: LoadTally

    /// The room as the bench has verified it; nil until the first snapshot
    /// and after an event that could not be applied (then `broken`).
    @exclusivity(unchecked) private var reference: RoomState?
    @exclusivity(unchecked) private(set) var broken = false
    /// The reference's sequence number, or -1 without one; kept beside it so
    /// the per-event path never reads the (large) reference itself.
    @exclusivity(unchecked) private(set) var referenceSeq = -1
    /// Hash of the sequenced event line with each seq (the index); 0 while
    /// no member has received it.
    @exclusivity(unchecked) private(set) var lineHashes: [UInt64] = []
    /// Lines received ahead of the reference (a bot that joined later than
    /// the one the reference follows), and while joining every line, so the
    /// reference can be rebuilt from an earlier snapshot.
    @exclusivity(unchecked) private var storedLines: [UInt64: [UInt8]] = [:]
    /// Bots are still joining: snapshots may come in any order.
    @exclusivity(unchecked) private(set) var joining = true
    /// While joining: the reference's digest at each seq it has been at.
    @exclusivity(unchecked) private var digests: [UInt64: StateDigest] = [:]
    /// Snapshot digests (by bot; -1 for an abandoned reference) waiting for
    /// the reference to reach their seq.
    @exclusivity(unchecked) private var pendingSnapshots: [UInt64: [(bot: Int, digest: StateDigest)]] = [:]
    /// The reference's digest at the end, computed once for all members.
    @exclusivity(unchecked) private var digestCache: (seq: UInt64, digest: StateDigest)?
    /// The highest puzzle index seen solved, so each solve is counted once.
    @exclusivity(unchecked) private var lastSolved = -1
    /// How long each puzzle solved during the run took (ms).
    @exclusivity(unchecked) private(set) var solveMillis: [Int64] = []

    init(name: String, room: Int, clock: RunClock, tally: LoadTally) {
        self.name = name
        self.room = room
        self.clock = clock
        self.tally = tally
    }

    // MARK: - Reading the reference

    /// Runs `body` on the reference, moved out and back rather than copied
    /// (reading a struct held by a class copies it: hundreds of bytes and a
    /// retain per field). `body` must not touch this stream.
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

    /// Whether the reference has applied every line a member received and
    /// every snapshot has been compared.
    var caughtUp: Bool {
        guard !broken else { return true }
        return pendingSnapshots.isEmpty && lineHashes.count <= referenceSeq + 1
    }

    // MARK: - What members receive

    /// A sequenced event line (anything but a drag or chat) received by bot
    /// `bot`, whose last seq is `lastSeq` (advanced when the line follows it).
    func sequenced<Observer: ReferenceStreamObserver>(bot: Int, lastSeq: inout UInt64, seq: UInt64, line: LineScanner, observer: Observer) {
        guard seq == lastSeq + 1 else {
            tally.failures.eventGaps += 1
            tally.note("bot\(bot): event seq \(seq) after seq \(lastSeq)")
            return
        }
        lastSeq = seq
        let i = Int(seq)
        guard recordLine(seq: i, hash: lineHash(line.base, line.end)) else {
            tally.viewMismatches += 1
            tally.note("bot\(bot): event line for seq \(seq) differs from another member's: '\(line.string.prefix(80))'")
            return
        }
        guard !broken, referenceSeq >= 0 else { return }
        let next = referenceSeq + 1
        if i >= next && (joining || i > next) && storedLines[seq] == nil {
            storedLines[seq] = Array(UnsafeBufferPointer(start: line.base, count: line.end))
        }
        if i == next {
            advance(line, observer: observer)
            drainStored(observer: observer)
        }
    }

    /// Bot `bot` joined with `state` (its decoded JOIN snapshot): seeds the
    /// reference, or compares digests at the snapshot's seq (now, or once the
    /// reference gets there). A snapshot older than the reference's start
    /// restarts the reference from it; the abandoned start is re-checked.
    func snapshotJoined<Observer: ReferenceStreamObserver>(bot: Int, state: RoomState, observer: Observer) {
        let seq = state.seq
        guard !broken else { return }
        let digest = state.digest
        guard referenceSeq >= 0 else {
            setReference(state)
            digests[seq] = digest
            drainStored(observer: observer)
            return
        }
        if seq > UInt64(referenceSeq) {
            pendingSnapshots[seq, default: []].append((bot, digest))
        } else if let d = digests[seq] {
            compareSnapshot(bot: bot, seq: seq, snapshot: digest, reference: d)
        } else {
            for (k, d) in digests { pendingSnapshots[k, default: []].append((-1, d)) }
            digests = [seq: digest]
            setReference(state)
            drainStored(observer: observer)
        }
    }

    /// Bots have all joined: keep only lines still ahead of the reference.
    func endJoining() {
        joining = false
        digests = [:]
        let seq = UInt64(max(referenceSeq, 0))
        storedLines = storedLines.filter { $0.key > seq }
    }

    // MARK: - Keeping the reference

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

    /// Replaces the reference (a snapshot, or nil when it broke).
    private func setReference(_ state: RoomState?) {
        reference = state
        referenceSeq = state.map { Int($0.seq) } ?? -1
    }

    private func compareSnapshot(bot: Int, seq: UInt64, snapshot: StateDigest, reference: StateDigest) {
        guard snapshot != reference else { return }
        tally.viewMismatches += 1
        let who = bot < 0 ? "an earlier snapshot" : "bot\(bot)'s JOIN snapshot"
        tally.note("\(name): \(who) at seq \(seq) has digest \(snapshot), the room's mirror \(reference)")
    }

    /// Applies stored lines that now follow the reference.
    private func drainStored<Observer: ReferenceStreamObserver>(observer: Observer) {
        while !broken, referenceSeq >= 0, case let seq = UInt64(referenceSeq + 1), let bytes = storedLines[seq] {
            if !joining { storedLines[seq] = nil }
            bytes.withUnsafeBytes { advance(LineScanner($0), observer: observer) }
        }
    }

    /// Applies one sequenced event line to the reference (its seq is the
    /// reference's next), then tells `observer` what it means for the bots.
    private func advance<Observer: ReferenceStreamObserver>(_ line: LineScanner, observer: Observer) {
        // The protocol's own reader of events, on the line's bytes where they lie.
        guard case .room(let event)? = EventCodec.decode(line.bytes, now: clock.clockMillis) else {
            return breakReference(line, "cannot parse")
        }
        let seq = event.seq, body = event.body
        // A part going into the board comes apart as it goes: counted before.
        if case .placed(let piece, _, .board(_), _) = body, let size = withReference({ $0.parts.size(with: piece) }), size > 1 {
            tally.total.partsCarriedIn += 1
            tally.total.piecesCarriedIn += size
        }
        do {
            try reference?.apply(event)
            referenceSeq = Int(seq)
        } catch {
            return breakReference(line, "\(error)")
        }
        if joining, let digest = withReference({ $0.digest }) {
            digests[seq] = digest
            if let waiting = pendingSnapshots.removeValue(forKey: seq) {
                for w in waiting { compareSnapshot(bot: w.bot, seq: seq, snapshot: w.digest, reference: digest) }
            }
        }
        switch body {
        case .solved(let puzzle, let ms):
            if puzzle > lastSolved {
                lastSolved = puzzle
                solveMillis.append(ms)
            }
            observer.puzzleSolved(inRoom: room)
        case .merged(let piece, _, _):
            tally.total.merges += 1
            if let size = withReference({ $0.parts.size(with: piece) }) { tally.total.largestPart = max(tally.total.largestPart, size) }
        case .nextPuzzle:
            observer.nextPuzzleStarted(inRoom: room)
        default:
            break
        }
    }

    private func breakReference(_ line: LineScanner, _ why: String) {
        broken = true
        setReference(nil)
        storedLines = [:]
        tally.mirrorError("\(name): cannot apply '\(line.string.prefix(80))': \(why)")
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
