import PuzzleCore

/// The room's most recent sequenced events, as the lines its members were
/// sent, so that a client coming back (`REJOIN`, `SYNC <seq> <run>`) gets
/// what it missed instead of the whole room: a blink costs bytes in
/// proportion to what happened meanwhile.
///
/// Bounded by count and by bytes; the oldest go first. It vouches only for
/// points of this server run (`run`): after a restart the room's history
/// between its last durable record and the crash is gone (grabs, holds), so
/// a client's older point may not be this room's, and gets a snapshot.
///
/// Not thread-safe: owned by the server's event loop.
struct RecentEvents {
    /// Most events kept.
    static let maxEvents = 4096
    /// Most bytes of event lines kept.
    static let maxBytes = 256 * 1024

    /// This room's run: 16 lowercase hex digits, new each time the server
    /// opens or restores the room.
    let run: String
    /// The room's seq when this run began: points before it are not ours.
    private(set) var baseSeq: UInt64
    /// Event lines, oldest first, from `start` on (earlier ones are dropped).
    private var bytes: [UInt8] = []
    /// For each kept event: its seq, where its line ends in `bytes`, and
    /// whether it begins another puzzle (whose picture needs a snapshot).
    private var entries: [(seq: UInt64, end: Int, isNext: Bool)] = []
    /// Index of the oldest kept entry, and where its line starts.
    private var first = 0
    private var start = 0

    init(run: UInt64, seq: UInt64) {
        let hex = String(run, radix: 16)
        self.run = String(repeating: "0", count: 16 - hex.count) + hex
        baseSeq = seq
    }

    /// Keeps a sequenced event's line (with its terminator).
    mutating func append(seq: UInt64, isNext: Bool, line: [UInt8]) {
        if let last = entries.last, seq != last.seq + 1 {
            // A gap (an event never sent): nothing before it can be vouched for.
            entries.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            first = 0
            start = 0
            baseSeq = seq - 1
        }
        bytes.append(contentsOf: line)
        entries.append((seq, bytes.count, isNext))
        while entries.count - first > Self.maxEvents || bytes.count - start > Self.maxBytes {
            start = entries[first].end
            first += 1
        }
        // Compact once the dropped part is as large as the kept part.
        if first > 0 && first >= entries.count - first {
            entries.removeFirst(first)
            bytes.removeFirst(start)
            for i in entries.indices { entries[i].end -= start }
            first = 0
            start = 0
        }
    }

    /// The lines of every event after `seq` of run `run` up to `current`
    /// (the room's seq now), in order; nil when they are not all here (an
    /// older point, another run, a point from the future) or when one of
    /// them begins another puzzle (its picture comes with a snapshot).
    func lines(after seq: UInt64, run: String, current: UInt64) -> ArraySlice<UInt8>? {
        guard run == self.run, seq >= baseSeq, seq <= current else { return nil }
        if seq == current { return [] }
        // The oldest kept event must be the one right after `seq`, or older.
        guard first < entries.count, entries[first].seq <= seq + 1, entries[entries.count - 1].seq == current else { return nil }
        // Binary search for the first event after `seq`.
        var lo = first, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].seq <= seq { lo = mid + 1 } else { hi = mid }
        }
        guard lo < entries.count, entries[lo].seq == seq + 1 else { return nil }
        for i in lo..<entries.count where entries[i].isNext { return nil }
        let from = lo == first ? start : entries[lo - 1].end
        return bytes[from..<bytes.count]
    }

    /// Bytes the ring holds in memory (its buffers' capacity), for the
    /// server-wide cap (`RoomKeeper.capRejoinMemory`).
    var memoryBytes: Int { bytes.capacity + entries.capacity * MemoryLayout<(seq: UInt64, end: Int, isNext: Bool)>.stride }

    /// Lets go of every kept event and the memory under them (the server's
    /// rings are over their cap and this room is among the quietest): a
    /// client coming back from before now gets a snapshot, one at this point
    /// or later still catches up.
    mutating func forget() {
        bytes = []
        entries = []
        first = 0
        start = 0
    }

    /// How many events `lines(after:...)` handed out for `seq` (for the reply).
    func count(after seq: UInt64, current: UInt64) -> Int { Int(current - seq) }
}
