/// One canonical Huffman code of DEFLATE (literal/length or distance).
///
/// Codes up to `fastBits` long are found with one lookup of the next bits;
/// longer ones (rarer than one symbol in 2^fastBits by construction) are
/// walked one bit at a time through the counts per length.
struct InflateHuffman {
    static let fastBits = 10
    static let maxBits = 15
    /// Indexed by the next `fastBits` bits: `symbol << 4 | length`, or 0 for
    /// a code longer than `fastBits` (or none).
    var fast: [UInt16]
    /// How many codes have each length (index 0 unused).
    var counts: [Int]
    /// Symbols ordered by code.
    var symbols: [UInt16]

    /// Builds the code from each symbol's code length (0 = unused). An
    /// over-subscribed set is damaged; an incomplete one is allowed (a
    /// missing code is caught when the data uses it), as zlib does for
    /// single-code distance trees.
    init(lengths: ArraySlice<UInt8>, what: String) throws(ImageError) {
        counts = [Int](repeating: 0, count: Self.maxBits + 1)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...Self.maxBits {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw .damaged(.png, "over-subscribed Huffman code in \(what)") }
        }
        var offsets = [Int](repeating: 0, count: Self.maxBits + 2)
        for length in 1...Self.maxBits { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [UInt16](repeating: 0, count: lengths.count)
        fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        var nextCode = [Int](repeating: 0, count: Self.maxBits + 2)
        var code = 0
        for length in 1...Self.maxBits {
            code = (code + counts[length - 1]) << 1
            nextCode[length] = code
        }
        for (symbol, length) in zip(0..., lengths) where length != 0 {
            let length = Int(length)
            symbols[offsets[length]] = UInt16(symbol)
            offsets[length] += 1
            let code = nextCode[length]
            nextCode[length] += 1
            guard length <= Self.fastBits else { continue }
            // The stream holds the code's bits most significant first, read
            // least significant first: index by the reversed code.
            var reversed = 0
            for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
            let entry = UInt16(symbol << 4 | length)
            var index = reversed
            while index < 1 << Self.fastBits {
                fast[index] = entry
                index += 1 << length
            }
        }
    }

    /// Decodes one symbol; `bits` must hold at least 15 bits.
    @inline(__always)
    func decode(_ bits: inout InflateBits, fast: UnsafeBufferPointer<UInt16>) throws(ImageError) -> Int {
        let entry = Int(fast[bits.peek(Self.fastBits)])
        if entry != 0 {
            bits.consume(entry & 15)
            return entry >> 4
        }
        return try decodeSlowly(&bits)
    }

    /// The bit-by-bit walk (as zlib's puff): the code of each length starts
    /// where the previous length's codes end, doubled.
    func decodeSlowly(_ bits: inout InflateBits) throws(ImageError) -> Int {
        let peeked = bits.peek(Self.maxBits)
        var code = 0, first = 0, index = 0
        for length in 1...Self.maxBits {
            code |= (peeked >> (length - 1)) & 1
            let count = counts[length]
            if code - first < count {
                bits.consume(length)
                return Int(symbols[index + code - first])
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .damaged(.png, "a Huffman code in the image data matches no symbol")
    }
}
