/// Writes a zlib stream (RFC 1950) of DEFLATE data (RFC 1951) with fixed Huffman
/// codes and LZ77 matches found through a hash of the next three bytes:
/// small and quick, and enough for pictures whose filtered rows repeat
/// (most of a scene is smooth). No dynamic Huffman tables.
enum Deflater {
    /// Longest match and farthest distance DEFLATE allows.
    static let maxMatch = 258
    static let window = 32768
    static let lengthBases: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// `data` as a zlib stream.
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        // CMF: deflate with a 32 KiB window; FLG: no dictionary, check bits.
        out.bytes = [0x78, 0x01]
        compress(data, into: &out)
        out.alignToByte()
        let adler = data.withUnsafeBufferPointer { Adler32.checksum($0) }
        out.bytes += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return out.bytes
    }

    /// One final block with fixed codes (an empty input is an empty block).
    static func compress(_ data: [UInt8], into out: inout BitWriter) {
        out.write(1, bits: 1)  // BFINAL
        out.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        let hashSize = 1 << 15
        var head = [Int32](repeating: -1, count: hashSize)
        var previous = [Int32](repeating: -1, count: window)
        data.withUnsafeBufferPointer { d in
            func hash(_ i: Int) -> Int {
                (Int(d[i]) << 10 ^ Int(d[i + 1]) << 5 ^ Int(d[i + 2])) & (hashSize - 1)
            }
            func insert(_ i: Int) {
                guard i + 2 < d.count else { return }
                let h = hash(i)
                previous[i & (window - 1)] = head[h]
                head[h] = Int32(i)
            }
            var i = 0
            while i < d.count {
                var bestLength = 0, bestDistance = 0
                if i + 2 < d.count {
                    var candidate = Int(head[hash(i)])
                    var chain = 16
                    let limit = min(maxMatch, d.count - i)
                    while candidate >= 0, i - candidate <= window, chain > 0 {
                        var n = 0
                        while n < limit && d[candidate + n] == d[i + n] { n += 1 }
                        if n > bestLength {
                            bestLength = n
                            bestDistance = i - candidate
                            if n == limit { break }
                        }
                        let next = Int(previous[candidate & (window - 1)])
                        // Older entries only: a slot reused by a newer position ends the chain.
                        guard next < candidate else { break }
                        candidate = next
                        chain -= 1
                    }
                }
                if bestLength >= 3 {
                    writeLength(bestLength, into: &out)
                    writeDistance(bestDistance, into: &out)
                    for k in i..<(i + bestLength) { insert(k) }
                    i += bestLength
                } else {
                    writeLiteral(Int(d[i]), into: &out)
                    insert(i)
                    i += 1
                }
            }
        }
        writeLiteral(256, into: &out)  // end of block
    }

    /// A literal/length symbol in the fixed code (RFC 1951 §3.2.6).
    static func writeLiteral(_ symbol: Int, into out: inout BitWriter) {
        switch symbol {
        case 0...143: out.writeCode(0x30 + symbol, length: 8)
        case 144...255: out.writeCode(0x190 + symbol - 144, length: 9)
        case 256...279: out.writeCode(symbol - 256, length: 7)
        default: out.writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    static func writeLength(_ length: Int, into out: inout BitWriter) {
        var code = lengthBases.count - 1
        while lengthBases[code] > length { code -= 1 }
        // 258 has its own code (285), not 284 with extra bits.
        if length == 258 { code = 28 }
        writeLiteral(257 + code, into: &out)
        out.write(UInt32(length - lengthBases[code]), bits: lengthExtra[code])
    }

    static func writeDistance(_ distance: Int, into out: inout BitWriter) {
        var code = distanceBases.count - 1
        while distanceBases[code] > distance { code -= 1 }
        out.writeCode(code, length: 5)
        out.write(UInt32(distance - distanceBases[code]), bits: distanceExtra[code])
    }
}
