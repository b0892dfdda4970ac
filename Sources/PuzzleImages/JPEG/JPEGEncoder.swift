import PuzzleCore

/// Writes pictures as baseline JPEG files: JFIF, 8-bit YCbCr with the colour
/// halved both ways (4:2:0), the standard's example quantization tables
/// scaled by a quality as libjpeg scales them, and its example Huffman
/// tables. Sends a picture to a client in a tenth of its PNG's bytes (a
/// photo's grain is what a lossless code cannot shrink); every JPEG decoder
/// reads it, ours and `djpeg` among them.
public enum JPEGEncoder {
    /// Quality used where none is asked: libjpeg's scale, 1...100.
    public static let defaultQuality = 85

    /// The picture as a JPEG file. `quality` is clamped to 1...100.
    public static func encode(_ picture: Picture, quality: Int = defaultQuality) -> [UInt8] {
        let width = picture.width, height = picture.height
        let mcusAcross = (width + 15) / 16, mcusDown = (height + 15) / 16
        // Planes padded to whole MCUs by repeating the last row and column,
        // so the padding costs few bits and bleeds no colour into the edge.
        let lumaStride = mcusAcross * 16, chromaStride = mcusAcross * 8
        var luma = [Float](repeating: 0, count: lumaStride * mcusDown * 16)
        var cb = [Float](repeating: 0, count: chromaStride * mcusDown * 8)
        var cr = cb
        let pixels = picture.pixels
        for y in 0..<(mcusDown * 16) {
            let row = min(y, height - 1) * width
            for x in 0..<lumaStride {
                let p = pixels[row + min(x, width - 1)]
                let r = Float(p.r), g = Float(p.g), b = Float(p.b)
                luma[y * lumaStride + x] = 0.299 * r + 0.587 * g + 0.114 * b - 128
                // Each chroma sample is the mean of its 2×2 pixels (both
                // level-shifted, so the +128 of T.81's equations cancels).
                let c = (y / 2) * chromaStride + x / 2
                cb[c] += 0.25 * (-0.168736 * r - 0.331264 * g + 0.5 * b)
                cr[c] += 0.25 * (0.5 * r - 0.418688 * g - 0.081312 * b)
            }
        }

        let lumaTable = JPEGStandardTables.scaled(JPEGStandardTables.luminanceQuantization, quality: quality)
        let chromaTable = JPEGStandardTables.scaled(JPEGStandardTables.chrominanceQuantization, quality: quality)
        var out = header(width: width, height: height, lumaTable: lumaTable, chromaTable: chromaTable)

        var coder = BlockCoder()
        let lumaCodes = (dc: JPEGHuffmanEncoder(JPEGStandardTables.luminanceDC), ac: JPEGHuffmanEncoder(JPEGStandardTables.luminanceAC))
        let chromaCodes = (dc: JPEGHuffmanEncoder(JPEGStandardTables.chrominanceDC), ac: JPEGHuffmanEncoder(JPEGStandardTables.chrominanceAC))
        let lumaDivisors = lumaTable.map(Float.init), chromaDivisors = chromaTable.map(Float.init)
        var dc = (y: 0, cb: 0, cr: 0)
        for my in 0..<mcusDown {
            for mx in 0..<mcusAcross {
                for (bx, by) in [(0, 0), (8, 0), (0, 8), (8, 8)] {
                    coder.code(luma, stride: lumaStride, x: mx * 16 + bx, y: my * 16 + by, divisors: lumaDivisors,
                               previousDC: &dc.y, dc: lumaCodes.dc, ac: lumaCodes.ac)
                }
                coder.code(cb, stride: chromaStride, x: mx * 8, y: my * 8, divisors: chromaDivisors,
                           previousDC: &dc.cb, dc: chromaCodes.dc, ac: chromaCodes.ac)
                coder.code(cr, stride: chromaStride, x: mx * 8, y: my * 8, divisors: chromaDivisors,
                           previousDC: &dc.cr, dc: chromaCodes.dc, ac: chromaCodes.ac)
            }
        }
        coder.bits.finish()
        out += coder.bits.bytes
        out += [0xFF, 0xD9]
        return out
    }

    /// SOI, APP0 (JFIF 1.1, no density), DQT, SOF0, DHT and SOS.
    private static func header(width: Int, height: Int, lumaTable: [Int], chromaTable: [Int]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            out += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8(truncatingIfNeeded: body.count + 2)]
            out += body
        }
        segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        let zigzag = JPEGScan.naturalOrder.prefix(64)
        segment(0xDB, [0x00] + zigzag.map { UInt8(lumaTable[$0]) } + [0x01] + zigzag.map { UInt8(chromaTable[$0]) })
        let size = [UInt8(height >> 8), UInt8(truncatingIfNeeded: height), UInt8(width >> 8), UInt8(truncatingIfNeeded: width)]
        segment(0xC0, [8] + size + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        var tables: [UInt8] = []
        for (tag, table) in [(0x00, JPEGStandardTables.luminanceDC), (0x10, JPEGStandardTables.luminanceAC),
                             (0x01, JPEGStandardTables.chrominanceDC), (0x11, JPEGStandardTables.chrominanceAC)] {
            tables += [UInt8(tag)] + table.counts + table.symbols
        }
        segment(0xC4, tables)
        segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])
        return out
    }

    /// Transforms, quantizes and Huffman-codes one 8×8 block at a time.
    private struct BlockCoder {
        var bits = JPEGBitWriter()
        var block = [Float](repeating: 0, count: 64)
        var scratch = [Float](repeating: 0, count: 64)
        var quantized = [Int](repeating: 0, count: 64)

        mutating func code(_ plane: [Float], stride: Int, x: Int, y: Int, divisors: [Float],
                           previousDC: inout Int, dc: JPEGHuffmanEncoder, ac: JPEGHuffmanEncoder) {
            for row in 0..<8 {
                for col in 0..<8 { block[row * 8 + col] = plane[(y + row) * stride + x + col] }
            }
            JPEGForwardDCT.transform(&block, scratch: &scratch)
            // Quantized, in zigzag order. Level-shifted 8-bit samples keep DC in
            // -1024...1016 (differences fit 11 bits) and AC within 10 bits.
            for k in 0..<64 {
                let natural = JPEGScan.naturalOrder[k]
                let limit = k == 0 ? 1024 : 1023
                quantized[k] = max(-limit, min(limit, Int((block[natural] / divisors[natural]).rounded())))
            }
            put(quantized[0] - previousDC, run: 0, table: dc)
            previousDC = quantized[0]
            var run = 0
            for k in 1..<64 {
                let v = quantized[k]
                if v == 0 { run += 1; continue }
                while run > 15 { put(symbol: 0xF0, table: ac); run -= 16 }
                put(v, run: run, table: ac)
                run = 0
            }
            if run > 0 { put(symbol: 0x00, table: ac) }  // end of block
        }

        /// A value as T.81 F.1.2 codes it: the symbol `run << 4 | size`, then
        /// `size` bits of the value (one less than it when negative).
        private mutating func put(_ v: Int, run: Int, table: JPEGHuffmanEncoder) {
            let magnitude = v < 0 ? -v : v
            let size = magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount
            put(symbol: run << 4 | size, table: table)
            bits.write(UInt32(truncatingIfNeeded: v < 0 ? v - 1 : v), length: size)
        }

        private mutating func put(symbol: Int, table: JPEGHuffmanEncoder) {
            bits.write(UInt32(table.codes[symbol]), length: Int(table.lengths[symbol]))
        }
    }
}
