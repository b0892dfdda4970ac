/// A growable byte buffer shared by reference: a room's broadcast bytes for one
/// loop turn, or one connection's replies for one turn. Output queues hold
/// slices of chunks, so an event is encoded once however many members get it.
final class ByteChunk {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }
}

/// A range of a chunk waiting to be sent.
struct OutputSlice {
    let chunk: ByteChunk
    var start: Int
    var end: Int

    var count: Int { end - start }
}
