import PuzzleCore

/// Writes pictures as PNG files (8-bit RGB, not interlaced), for browsers.
/// Each row gets the filter (none, sub, up or Paeth) whose output has the
/// smallest sum of absolute values, the usual heuristic, then the rows are
/// compressed together (`Deflater`, fixed Huffman codes); chunks carry the
/// package's one CRC-32.
public enum PNGEncoder {
    public static func encode(_ picture: Picture) -> [UInt8] {
        let width = picture.width, height = picture.height, pixels = picture.pixels
        let stride = width * 3
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (stride + 1))
        var previous = [UInt8](repeating: 0, count: stride)
        var row = [UInt8](repeating: 0, count: stride)
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: stride), count: 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixels[y * width + x]
                row[3 * x] = p.r
                row[3 * x + 1] = p.g
                row[3 * x + 2] = p.b
            }
            var best = 0, bestScore = Int.max
            for filter in 0..<4 {
                var score = 0
                for i in 0..<stride {
                    let a = i >= 3 ? row[i - 3] : 0, b = previous[i], c = i >= 3 ? previous[i - 3] : 0
                    let predicted: UInt8
                    switch filter {
                    case 0: predicted = 0
                    case 1: predicted = a
                    case 2: predicted = b
                    default: predicted = paeth(a, b, c)
                    }
                    let v = row[i] &- predicted
                    candidates[filter][i] = v
                    score += v < 128 ? Int(v) : 256 - Int(v)
                }
                if score < bestScore { best = filter; bestScore = score }
            }
            // PNG's filter types: 0 none, 1 sub, 2 up, 4 Paeth.
            raw.append([0, 1, 2, 4][best])
            raw += candidates[best]
            swap(&previous, &row)
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
        }
        func chunk(_ type: String, _ data: [UInt8]) {
            let typeBytes = Array(type.utf8)
            out += be32(UInt32(data.count))
            out += typeBytes
            out += data
            out += be32(CRC32.checksum(typeBytes + data))
        }
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
        chunk("IDAT", Deflater.zlib(raw))
        chunk("IEND", [])
        return out
    }

    /// The Paeth predictor (PNG §9.4): whichever of left, up and up-left is
    /// closest to left + up - up-left.
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
