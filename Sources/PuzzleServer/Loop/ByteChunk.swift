import PuzzleProtocol

/// A growable byte buffer shared by reference: a room's broadcast bytes for one
/// loop turn, or one connection's replies for one turn. Output queues hold
/// slices of chunks, so an event is encoded once however many members get it,
/// and the bytes live in storage of the chunk's own so a gathered send can point
/// at any slice of them without copying. The codecs write into it directly
/// (`ByteSink`): a line is encoded where it is sent from.
final class ByteChunk: ByteSink {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 1)
    }

    deinit { base.deallocate() }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        reserve(count + bytes.count)
        (base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count += bytes.count
    }

    func append(bytes: UnsafeRawBufferPointer) {
        append(bytes)
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { reserve(count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Empties the chunk, keeping its storage: only for a chunk no queue
    /// holds a slice of any more (an output queue's own, once drained).
    func removeAll() {
        count = 0
    }

    /// The bytes `start..<end`; valid until the next append (which may move them).
    func bytes(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

/// A range of a chunk waiting to be sent.
struct OutputSlice {
    let chunk: ByteChunk
    var start: Int
    var end: Int

    var count: Int { end - start }
}
