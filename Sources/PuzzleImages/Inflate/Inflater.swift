/// zlib (RFC 1950) and DEFLATE (RFC 1951) decompression: stored, fixed and
/// dynamic Huffman blocks, the Adler-32 of the result checked.
///
/// The caller knows how many bytes the stream must give (a PNG's rows), so
/// the output is allocated once at that size and a stream that would write
/// past it is damaged: a hostile stream cannot grow memory or loop for ever
/// (every step writes a byte or consumes bits, and bits past the end of the
/// data are an error).
enum Inflater {
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order code-length code lengths are sent in (RFC 1951, 3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static let fixedLiterals: InflateHuffman = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        return try! InflateHuffman(lengths: lengths[...], what: "the fixed code")
    }()
    static let fixedDistances: InflateHuffman = try! InflateHuffman(lengths: [UInt8](repeating: 5, count: 30)[...], what: "the fixed code")

    /// Decompresses a zlib stream that must yield exactly `outputSize` bytes,
    /// all of them at once (for tests and small data).
    static func zlib(_ data: UnsafeBufferPointer<UInt8>, outputSize: Int) throws(ImageError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(outputSize)
        try zlib(data, outputSize: outputSize, chunk: min(outputSize, 1 << 16)) { bytes throws(ImageError) in
            output.append(contentsOf: bytes)
            return bytes.count
        }
        return output
    }

    /// Decompresses a zlib stream that must yield exactly `outputSize`
    /// bytes, handing them to `consume` as they come instead of holding them
    /// all: only the 32 KiB DEFLATE may refer back to stay in memory, plus
    /// what `consume` leaves unconsumed. `consume` gets the bytes not yet
    /// consumed (in order) and returns how many it took; it must take all
    /// but fewer than `chunk` of them (a PNG reader takes whole rows, so
    /// `chunk` is a row with its filter byte). Memory: about 96 KiB plus
    /// twice `chunk`, whatever `outputSize` is.
    static func zlib(_ data: UnsafeBufferPointer<UInt8>, outputSize: Int, chunk: Int,
                     consume: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int) throws(ImageError) {
        guard data.count >= 2 else { throw .truncated(.png, "the zlib header") }
        let cmf = Int(data[0]), flags = Int(data[1])
        guard cmf & 15 == 8, cmf >> 4 <= 7 else { throw .damaged(.png, "zlib method \(cmf & 15) window \(cmf >> 4) (only deflate, up to 32 KiB)") }
        guard (cmf << 8 | flags) % 31 == 0 else { throw .badChecksum(.png, "zlib header check bits") }
        guard flags & 0x20 == 0 else { throw .damaged(.png, "zlib preset dictionary (not allowed in PNG)") }
        var window = InflateWindow(capacity: InflateWindow.history + 2 * max(chunk, 1) + (1 << 16), total: outputSize)
        defer { window.deallocate() }
        var bits = InflateBits(data, from: 2)
        var at = 0
        try inflate(&bits, into: &window, at: &at, consume: consume)
        try window.flush(at: &at, consume: consume, need: 0)
        let written = window.discarded + at
        guard written == outputSize else {
            throw .damaged(.png, "image data holds \(written) bytes, the picture needs \(outputSize)")
        }
        guard window.delivered == at else { throw .damaged(.png, "image data ends inside a row") }
        bits.alignToByte()
        guard bits.position + 4 <= data.count else { throw .truncated(.png, "the zlib Adler-32 checksum") }
        let stored = data[bits.position ..< bits.position + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == window.adler.value else { throw .badChecksum(.png, "zlib Adler-32 of the image data") }
    }

    /// Decodes DEFLATE blocks until the final one.
    static func inflate(_ bits: inout InflateBits, into window: inout InflateWindow, at: inout Int,
                        consume: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int) throws(ImageError) {
        while true {
            bits.refill()
            guard !bits.overran else { throw .truncated(.png, "a deflate block header") }
            let final = bits.take(1) == 1
            switch bits.take(2) {
            case 0: try storedBlock(&bits, into: &window, at: &at, consume: consume)
            case 1: try huffmanBlock(&bits, literals: fixedLiterals, distances: fixedDistances, into: &window, at: &at, consume: consume)
            case 2:
                let (literals, distances) = try dynamicCodes(&bits)
                try huffmanBlock(&bits, literals: literals, distances: distances, into: &window, at: &at, consume: consume)
            default: throw .damaged(.png, "deflate block type 3")
            }
            if final { return }
        }
    }

    static func storedBlock(_ bits: inout InflateBits, into window: inout InflateWindow, at: inout Int,
                            consume: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int) throws(ImageError) {
        bits.alignToByte()
        let data = bits.data
        let p = bits.position
        guard p + 4 <= data.count else { throw .truncated(.png, "a stored deflate block's length") }
        let length = Int(data[p]) | Int(data[p + 1]) << 8
        let inverse = Int(data[p + 2]) | Int(data[p + 3]) << 8
        guard length ^ inverse == 0xFFFF else { throw .damaged(.png, "stored deflate block length \(length) and its complement disagree") }
        guard p + 4 + length <= data.count else { throw .truncated(.png, "a stored deflate block") }
        var copied = 0
        while copied < length {
            if at == window.limit { try window.flush(at: &at, consume: consume, need: 1) }
            let n = min(length - copied, window.limit - at)
            (window.buffer + at).update(from: data.baseAddress! + p + 4 + copied, count: n)
            at += n
            copied += n
        }
        bits.position = p + 4 + length
    }
    /// Reads a dynamic block's two codes (RFC 1951, 3.2.7).
    static func dynamicCodes(_ bits: inout InflateBits) throws(ImageError) -> (InflateHuffman, InflateHuffman) {
        bits.refill()
        let literalCount = bits.take(5) + 257
        let distanceCount = bits.take(5) + 1
        let codeLengthCount = bits.take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw .damaged(.png, "dynamic deflate block with \(literalCount) literal and \(distanceCount) distance codes")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount {
            bits.refill()
            codeLengthLengths[codeLengthOrder[i]] = UInt8(bits.take(3))
        }
        let codeLengthCode = try InflateHuffman(lengths: codeLengthLengths[...], what: "a code length code")
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var i = 0
        try codeLengthCode.fast.withUnsafeBufferPointer { fast throws(ImageError) in
            while i < lengths.count {
                bits.refill()
                guard !bits.overran else { throw .truncated(.png, "a deflate block's code lengths") }
                let symbol = try codeLengthCode.decode(&bits, fast: fast)
                var repeated: UInt8 = 0, times = 1
                switch symbol {
                case 0...15: repeated = UInt8(symbol)
                case 16:
                    guard i > 0 else { throw .damaged(.png, "deflate code lengths repeat before the first one") }
                    repeated = lengths[i - 1]; times = 3 + bits.take(2)
                case 17: times = 3 + bits.take(3)
                default: times = 11 + bits.take(7)
                }
                guard i + times <= lengths.count else { throw .damaged(.png, "deflate code lengths repeat past their count") }
                for j in i ..< i + times { lengths[j] = repeated }
                i += times
            }
        }
        guard lengths[256] != 0 else { throw .damaged(.png, "dynamic deflate block without an end-of-block code") }
        return (try InflateHuffman(lengths: lengths[..<literalCount], what: "a literal/length code"),
                try InflateHuffman(lengths: lengths[literalCount...], what: "a distance code"))
    }

    /// The hot loop: literals and back-references until end-of-block.
    static func huffmanBlock(_ bits: inout InflateBits, literals: InflateHuffman, distances: InflateHuffman,
                             into window: inout InflateWindow, at: inout Int,
                             consume: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int) throws(ImageError) {
        let outBase = window.buffer
        var limit = window.limit
        var o = at
        defer { at = o }
        try literals.fast.withUnsafeBufferPointer { litFast throws(ImageError) in
            try distances.fast.withUnsafeBufferPointer { distFast throws(ImageError) in
                try lengthBase.withUnsafeBufferPointer { lengthBase throws(ImageError) in
                    try distanceBase.withUnsafeBufferPointer { distanceBase throws(ImageError) in
                        while true {
                            // 56 bits cover the longest step: 15 + 5 + 15 + 13.
                            bits.refill()
                            guard !bits.overran else { throw .truncated(.png, "a deflate block") }
                            let symbol = try literals.decode(&bits, fast: litFast)
                            if symbol < 256 {
                                if o >= limit {
                                    // Full: hand the rows over and keep only the history.
                                    try window.flush(at: &o, consume: consume, need: 1)
                                    limit = window.limit
                                }
                                outBase[o] = UInt8(truncatingIfNeeded: symbol)
                                o += 1
                                continue
                            }
                            if symbol == 256 { return }
                            let l = symbol - 257
                            guard l < 29 else { throw .damaged(.png, "deflate length code \(symbol)") }
                            let length = lengthBase[l] + bits.take(Inflater.lengthExtra[l])
                            let d = try distances.decode(&bits, fast: distFast)
                            guard d < 30 else { throw .damaged(.png, "deflate distance code \(d)") }
                            let distance = distanceBase[d] + bits.take(Inflater.distanceExtra[d])
                            if o + length > limit {
                                try window.flush(at: &o, consume: consume, need: length)
                                limit = window.limit
                            }
                            guard distance <= o else { throw .damaged(.png, "deflate distance \(distance) reaches before the start of the data") }
                            var from = o - distance
                            if distance >= length {
                                (outBase + o).update(from: outBase + from, count: length)
                                o += length
                            } else {
                                // Overlapping: each byte may be one this copy just wrote.
                                let end = o + length
                                while o < end {
                                    outBase[o] = outBase[from]
                                    o += 1
                                    from += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
