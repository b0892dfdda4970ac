import Foundation

/// The 8×8 forward DCT of T.81 A.3.3, computed separably in floating point:
/// encoding pictures of a few hundred pixels a side, exactness matters more
/// here than the integer tricks a decoder needs for speed.
enum JPEGForwardDCT {
    /// `basis[u * 8 + x] = C(u)/2 · cos((2x+1)uπ/16)`, with `C(0) = 1/√2`.
    private static let basis: [Float] = (0..<64).map { i in
        let u = i / 8, x = i % 8
        let c = u == 0 ? 1 / 2.0.squareRoot() : 1.0
        return Float(c / 2 * cos(Double(2 * x + 1) * Double(u) * Double.pi / 16))
    }

    /// Transforms 64 level-shifted samples (row-major) into coefficients in
    /// natural order (`v * 8 + u`: `v` down, `u` across).
    static func transform(_ block: inout [Float], scratch: inout [Float]) {
        for y in 0..<8 {
            for u in 0..<8 {
                var sum: Float = 0
                for x in 0..<8 { sum += basis[u * 8 + x] * block[y * 8 + x] }
                scratch[y * 8 + u] = sum
            }
        }
        for v in 0..<8 {
            for u in 0..<8 {
                var sum: Float = 0
                for y in 0..<8 { sum += basis[v * 8 + y] * scratch[y * 8 + u] }
                block[v * 8 + u] = sum
            }
        }
    }
}
