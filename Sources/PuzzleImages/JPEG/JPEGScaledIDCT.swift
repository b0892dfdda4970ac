import Foundation

/// The inverse DCT at a reduced size, for pictures decoded at 1/2, 1/4 or
/// 1/8 scale (as libjpeg's scaled decoding): a block's `size`² lowest
/// frequencies give `size`×`size` samples, the block's smooth
/// reconstruction taken at the centres of its 2×2, 4×4 or 8×8 pixel
/// groups; size 1 is the DC alone (the block's mean, as `jpeg_idct_1x1`).
/// Fixed point with 13-bit constants and two extra bits between the passes,
/// like the full-size IDCT; wide arithmetic, so damaged data cannot trap.
enum JPEGScaledIDCT {
    /// `table[size][x * size + u]`: c(u) cos((2x + 1) u π / 2 size) × 2^13,
    /// with c(0) = 1/(2√2) and c(u) = 1/2 (the 8-point IDCT's factors).
    static let tables: [[Int]] = (0...4).map { size in
        guard size > 0 else { return [] }
        return (0 ..< size * size).map { i in
            let x = i / size, u = i % size
            let c = u == 0 ? 1 / (2 * 2.0.squareRoot()) : 0.5
            return Int((c * cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * size)) * 8192).rounded())
        }
    }

    /// One block: `coefficients` (`size`² in natural order, rows of `size`)
    /// times `quant` (the full 8×8 table, natural order), into `size` rows
    /// of `size` samples `stride` apart.
    static func transform(size: Int, _ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>,
                          _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        if size == 1 {
            let dc = Int(coefficients[0]) * Int(quant[0])
            output[0] = clamp((dc + 4) >> 3)
            return
        }
        let t = tables[size]
        var workspace = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &workspace) { raw in
            let ws = raw.baseAddress!.assumingMemoryBound(to: Int.self)
            // Pass 1: columns into the workspace, two extra bits kept.
            for u in 0..<size {
                for y in 0..<size {
                    var sum = 0
                    for v in 0..<size {
                        sum += t[y * size + v] * Int(coefficients[v * size + u]) * Int(quant[v * 8 + u])
                    }
                    ws[y * size + u] = (sum + (1 << 10)) >> 11
                }
            }
            // Pass 2: rows into samples.
            for y in 0..<size {
                for x in 0..<size {
                    var sum = 0
                    for u in 0..<size { sum += t[x * size + u] * ws[y * size + u] }
                    output[y * stride + x] = clamp((sum + (1 << 14)) >> 15)
                }
            }
        }
    }

    @inline(__always)
    static func clamp(_ value: Int) -> UInt8 {
        let v = value + 128
        return v < 0 ? 0 : (v > 255 ? 255 : UInt8(v))
    }
}
