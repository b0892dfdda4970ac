/// One JPEG Huffman table (DHT): codes up to 16 bits, found with one lookup
/// of the next 9 bits for the common short codes and libjpeg's per-length
/// `maxCode` walk for the rest. A class over fixed buffers: the scan loop
/// reads it for every coefficient without copying or bounds-checking arrays.
final class JPEGHuffmanTable {
    static let lookBits = 9
    /// Indexed by the next 9 bits: `length << 8 | symbol`, or 0 when longer.
    private let lookup: UnsafeMutablePointer<UInt16>
    /// Largest code of each length 0...17 (-1 when none), and where its symbols start.
    private let maxCode: UnsafeMutablePointer<Int>
    private let valueOffset: UnsafeMutablePointer<Int>
    /// The symbols, padded to 256 entries.
    private let values: UnsafeMutablePointer<UInt8>
    private let valueCount: Int

    /// Builds a table from the 16 code counts and the symbols of a DHT segment.
    init(counts: [Int], values symbols: [UInt8]) throws(ImageError) {
        lookup = .allocate(capacity: 1 << Self.lookBits)
        lookup.initialize(repeating: 0, count: 1 << Self.lookBits)
        maxCode = .allocate(capacity: 18)
        maxCode.initialize(repeating: -1, count: 18)
        valueOffset = .allocate(capacity: 18)
        valueOffset.initialize(repeating: 0, count: 18)
        values = .allocate(capacity: 256)
        values.initialize(repeating: 0, count: 256)
        valueCount = min(256, symbols.count)
        for (i, v) in symbols.prefix(256).enumerated() { values[i] = v }
        var code = 0, k = 0
        for length in 1...16 {
            let n = counts[length - 1]
            valueOffset[length] = k - code
            if n > 0 {
                for _ in 0..<n {
                    // Codes of one length must fit in it (libjpeg: JERR_BAD_HUFF_TABLE).
                    guard code < 1 << length, k < valueCount else { throw .damaged(.jpeg, "Huffman table with more codes than fit in \(length) bits") }
                    if length <= Self.lookBits {
                        let shift = Self.lookBits - length
                        for fill in 0..<(1 << shift) {
                            lookup[code << shift | fill] = UInt16(length << 8 | Int(symbols[k]))
                        }
                    }
                    code += 1
                    k += 1
                }
                maxCode[length] = code - 1
            }
            code <<= 1
        }
        maxCode[17] = Int.max
    }

    deinit {
        lookup.deallocate()
        maxCode.deallocate()
        valueOffset.deallocate()
        values.deallocate()
    }

    /// The next symbol from `bits`.
    @inline(__always)
    func decode(_ bits: inout JPEGBits) throws(ImageError) -> Int {
        if bits.count < 16 { bits.fill() }
        let peek = Int(truncatingIfNeeded: bits.buffer >> UInt64(64 - Self.lookBits))
        let entry = Int(lookup[peek])
        if entry != 0 {
            let length = entry >> 8
            bits.buffer <<= UInt64(length)
            bits.count -= length
            return entry & 0xFF
        }
        return try decodeLong(&bits)
    }

    private func decodeLong(_ bits: inout JPEGBits) throws(ImageError) -> Int {
        var length = Self.lookBits + 1
        var code = Int(truncatingIfNeeded: bits.buffer >> UInt64(64 - length))
        while length <= 16 && code > maxCode[length] {
            length += 1
            code = Int(truncatingIfNeeded: bits.buffer >> UInt64(64 - length))
        }
        guard length <= 16 else { throw .damaged(.jpeg, "a Huffman code in the scan data matches no symbol") }
        bits.buffer <<= UInt64(length)
        bits.count -= length
        let index = code + valueOffset[length]
        guard index >= 0 && index < valueCount else { throw .damaged(.jpeg, "a Huffman code in the scan data matches no symbol") }
        return Int(values[index])
    }
}
