import Foundation

/// Where `Inflater` writes: a buffer that keeps the last 32 KiB of output
/// (the farthest a DEFLATE back-reference reaches) and whatever the reader
/// has not yet consumed; the rest is handed over and slid out, so a stream
/// of any length is decompressed in a fixed amount of memory. The Adler-32
/// is summed over bytes as they leave.
struct InflateWindow {
    /// DEFLATE's largest distance.
    static let history = 32768
    let buffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Bytes the whole stream must give.
    let total: Int
    /// Bytes slid out of the front of the buffer so far.
    private(set) var discarded = 0
    /// Index up to which the reader has consumed.
    private(set) var delivered = 0
    /// Index up to which the Adler-32 has been summed.
    private var summed = 0
    private(set) var adler = RunningAdler32()

    init(capacity: Int, total: Int) {
        self.capacity = capacity
        self.total = total
        buffer = .allocate(capacity: capacity)
    }

    func deallocate() { buffer.deallocate() }

    /// How far the decoder may write before it must call `flush`: the end
    /// of the buffer, or of the stream's output.
    var limit: Int { min(capacity, total - discarded) }

    /// Hands the unconsumed bytes before `at` to `consume`, slides out what
    /// is neither needed for history nor unconsumed, and checks that `need`
    /// more bytes fit (within the buffer and within the stream's `total`).
    mutating func flush(at: inout Int, consume: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int, need: Int) throws(ImageError) {
        if discarded + at + need > total {
            throw .damaged(.png, "image data longer than the picture's \(total) bytes")
        }
        adler.add(UnsafeBufferPointer(start: buffer + summed, count: at - summed))
        summed = at
        if at > delivered {
            let taken = try consume(UnsafeBufferPointer(start: buffer + delivered, count: at - delivered))
            precondition(taken >= 0 && taken <= at - delivered)
            delivered += taken
        }
        let drop = max(0, min(delivered, at - Self.history))
        if drop > 0 {
            memmove(buffer, buffer + drop, at - drop)
            at -= drop
            delivered -= drop
            summed -= drop
            discarded += drop
        }
        guard at + need <= capacity else {
            throw .damaged(.png, "a row longer than the inflate buffer of \(capacity) bytes")
        }
    }
}

/// zlib's Adler-32 summed in pieces.
struct RunningAdler32 {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    var value: UInt32 { b << 16 | a }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + 5552)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
    }
}
