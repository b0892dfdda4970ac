/// One JPEG Huffman table (DHT): codes up to 16 bits, found with one lookup
/// of the next 9 bits for the common short codes and libjpeg's per-length
/// `maxCode` walk for the rest.
struct JPEGHuffmanTable {
    static let lookBits = 9
    /// Indexed by the next 9 bits: `length << 8 | symbol`, or 0 when longer.
    var lookup: [UInt16]
    /// Largest code of each length (-1 when none), and where its symbols start.
    var maxCode: [Int]
    var valueOffset: [Int]
    var values: [UInt8]

    /// Builds a table from the 16 code counts and the symbols of a DHT segment.
    init(counts: [Int], values: [UInt8]) throws(ImageError) {
        self.values = values
        lookup = [UInt16](repeating: 0, count: 1 << Self.lookBits)
        maxCode = [Int](repeating: -1, count: 18)
        valueOffset = [Int](repeating: 0, count: 18)
        var code = 0, k = 0
        for length in 1...16 {
            let n = counts[length - 1]
            valueOffset[length] = k - code
            if n > 0 {
                for _ in 0..<n {
                    // Codes of one length must fit in it.
                    guard code < 1 << length else { throw .damaged(.jpeg, "Huffman table with more codes than fit in \(length) bits") }
                    if length <= Self.lookBits {
                        let shift = Self.lookBits - length
                        for fill in 0..<(1 << shift) {
                            lookup[code << shift | fill] = UInt16(length << 8 | Int(values[k]))
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
        guard index >= 0 && index < values.count else { throw .damaged(.jpeg, "a Huffman code in the scan data matches no symbol") }
        return Int(values[index])
    }
}
