/// The `dragged` lines a connection holds back rather than queues: only the
/// newest per piece, sent later (when a slow reader's queue drains, or at a
/// paced member's next tick: `PACE`). A later event about the same piece
/// drops the held line (the drop, return or grab says where the piece is),
/// but a rotation, which does not, sends it first (`take(piece:into:)`).
///
/// Cheap per drag, because a paced member holds every drag of its room: a
/// held line is a range of the room's turn chunk (kept alive here), filed in
/// a table by piece number; nothing is copied or allocated until the lines
/// are taken. A reader held back for long keeps at most `chunkLimit` turn
/// chunks: past that, the held lines are copied into one chunk of their own.
struct HeldDrags {
    /// Turn chunks kept before the held lines are compacted into one.
    static let chunkLimit = 32

    private struct Slot {
        /// Index into `chunks` + 1; 0: listed in `order` but holding nothing
        /// now (dropped); -1: not listed.
        var chunk: Int32 = -1
        var start: Int32 = 0
        var end: Int32 = 0
    }

    /// By piece number, grown to the highest piece held.
    private var slots: [Slot] = []
    /// Pieces with a listed slot, in the order first held (the order taken).
    private var order: [Int32] = []
    /// The chunks the held ranges lie in.
    private var chunks: [ByteChunk] = []
    /// Lines held now.
    private(set) var count = 0
    /// Held lines that a newer drag or a later event made stale, since the
    /// server last collected this count.
    var superseded = 0

    var isEmpty: Bool { count == 0 }
    /// Turn chunks kept alive now (at most `chunkLimit`).
    var chunksKept: Int { chunks.count }

    /// Holds `chunk`'s bytes `start..<end` (one `dragged` line) as `piece`'s
    /// newest, replacing the one held before.
    mutating func hold(piece: Int, chunk: ByteChunk, start: Int, end: Int) {
        guard piece >= 0 else { return }
        if piece >= slots.count { slots.append(contentsOf: repeatElement(Slot(), count: piece + 1 - slots.count)) }
        if chunks.last !== chunk {
            if chunks.count >= Self.chunkLimit { compact() }
            chunks.append(chunk)
        }
        switch slots[piece].chunk {
        case -1: order.append(Int32(piece)); count += 1
        case 0: count += 1
        default: superseded += 1
        }
        slots[piece] = Slot(chunk: Int32(chunks.count), start: Int32(start), end: Int32(end))
    }

    /// Forgets `piece`'s held line: a later event about the piece made it stale.
    mutating func drop(piece: Int) {
        guard piece >= 0, piece < slots.count, slots[piece].chunk > 0 else { return }
        slots[piece].chunk = 0
        count -= 1
        superseded += 1
        if count == 0 { discard() }
    }

    /// Appends `piece`'s held line to `bytes` and holds it no more (a later
    /// event about the piece that says nothing of where it is: a rotation).
    mutating func take(piece: Int, into bytes: inout [UInt8]) {
        guard piece >= 0, piece < slots.count, slots[piece].chunk > 0 else { return }
        let slot = slots[piece]
        bytes.append(contentsOf: chunks[Int(slot.chunk) - 1].bytes(Int(slot.start), Int(slot.end)))
        slots[piece].chunk = 0
        count -= 1
        if count == 0 { discard() }
    }

    /// Forgets every held line (the member left the room they are about).
    mutating func discard() {
        for piece in order { slots[Int(piece)].chunk = -1 }
        order.removeAll(keepingCapacity: true)
        chunks.removeAll(keepingCapacity: true)
        count = 0
    }

    /// The held lines, in the order their pieces were first held, appended
    /// to `bytes`; nothing is held after.
    mutating func take(into bytes: inout [UInt8]) {
        for piece in order {
            let slot = slots[Int(piece)]
            if slot.chunk > 0 {
                let range = chunks[Int(slot.chunk) - 1].bytes(Int(slot.start), Int(slot.end))
                bytes.append(contentsOf: range)
            }
        }
        discard()
    }

    /// Copies the held lines into one chunk of their own, letting go of the
    /// turn chunks they lay in.
    private mutating func compact() {
        var bytes: [UInt8] = []
        var ranges: [(piece: Int32, start: Int32, end: Int32)] = []
        for piece in order {
            let slot = slots[Int(piece)]
            guard slot.chunk > 0 else { continue }
            let start = bytes.count
            bytes.append(contentsOf: chunks[Int(slot.chunk) - 1].bytes(Int(slot.start), Int(slot.end)))
            ranges.append((piece, Int32(start), Int32(bytes.count)))
        }
        let own = ByteChunk(capacity: max(1, bytes.count))
        own.append(bytes)
        chunks.removeAll(keepingCapacity: true)
        chunks.append(own)
        for r in ranges { slots[Int(r.piece)] = Slot(chunk: 1, start: r.start, end: r.end) }
    }
}
