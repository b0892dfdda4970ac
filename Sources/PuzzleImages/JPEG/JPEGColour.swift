/// How a JPEG's components become RGB, chosen as libjpeg does: one
/// component is grey; three are YCbCr unless an Adobe marker says
/// "no transform" or the component ids spell R, G, B; four are Adobe CMYK,
/// or YCCK when the Adobe transform is 2.
enum JPEGColour {
    case grey, yCbCr, rgb, cmyk, ycck

    /// libjpeg's fixed-point YCbCr to RGB tables (jdcolor.c, 16 fraction bits):
    /// R = Y + crR[Cr], G = Y + (cbG[Cb] + crG[Cr]) >> 16, B = Y + cbB[Cb].
    struct Tables {
        var crR = [Int32](repeating: 0, count: 256)
        var cbB = [Int32](repeating: 0, count: 256)
        var crG = [Int32](repeating: 0, count: 256)
        var cbG = [Int32](repeating: 0, count: 256)

        init() {
            let half: Int64 = 1 << 15
            func fix(_ x: Double) -> Int64 { Int64(x * 65536 + 0.5) }
            for i in 0..<256 {
                let x = Int64(i - 128)
                crR[i] = Int32((fix(1.40200) * x + half) >> 16)
                cbB[i] = Int32((fix(1.77200) * x + half) >> 16)
                crG[i] = Int32(-fix(0.71414) * x)
                cbG[i] = Int32(-fix(0.34414) * x + half)
            }
        }
    }
    static let tables = Tables()

    /// `limit[v + 256]` is `v` clamped to 0...255 for `v` in -256...511
    /// (every sum of a sample and a table entry), a lookup instead of two branches.
    static let limit: [UInt8] = (0..<768).map { UInt8(max(0, min(255, $0 - 256))) }

    @inline(__always)
    static func clamp(_ v: Int32) -> UInt8 { v < 0 ? 0 : (v > 255 ? 255 : UInt8(truncatingIfNeeded: v)) }

    /// Converts one row of `width` pixels from component rows to RGB.
    static func convert(_ kind: JPEGColour, rows: [UnsafePointer<UInt8>], width: Int, into out: UnsafeMutablePointer<UInt8>,
                        crR: UnsafePointer<Int32>, cbB: UnsafePointer<Int32>, crG: UnsafePointer<Int32>, cbG: UnsafePointer<Int32>) {
        switch kind {
        case .grey:
            let g = rows[0]
            for x in 0..<width {
                let v = g[x]
                out[3 * x] = v; out[3 * x + 1] = v; out[3 * x + 2] = v
            }
        case .rgb:
            let r = rows[0], g = rows[1], b = rows[2]
            for x in 0..<width {
                out[3 * x] = r[x]; out[3 * x + 1] = g[x]; out[3 * x + 2] = b[x]
            }
        case .yCbCr:
            let yr = rows[0], cbr = rows[1], crr = rows[2]
            limit.withUnsafeBufferPointer { limit in
                let limit = limit.baseAddress! + 256
                var o = out
                for x in 0..<width {
                    let y = Int(yr[x]), cb = Int(cbr[x]), cr = Int(crr[x])
                    o[0] = limit[y &+ Int(crR[cr])]
                    o[1] = limit[y &+ Int((cbG[cb] &+ crG[cr]) &>> 16)]
                    o[2] = limit[y &+ Int(cbB[cb])]
                    o += 3
                }
            }
        case .cmyk, .ycck:
            // Adobe stores CMYK inverted (255 = no ink), so each channel is
            // its inverted ink times the inverted black. YCCK holds the
            // inverted C, M, Y as YCbCr of (255 - C, 255 - M, 255 - Y).
            let a = rows[0], b = rows[1], c = rows[2], k = rows[3]
            for x in 0..<width {
                var c0 = Int32(a[x]), c1 = Int32(b[x]), c2 = Int32(c[x])
                if kind == .ycck {
                    let y = c0, cb = Int(c1), cr = Int(c2)
                    c0 = 255 - Int32(clamp(y &+ crR[cr]))
                    c1 = 255 - Int32(clamp(y &+ ((cbG[cb] &+ crG[cr]) &>> 16)))
                    c2 = 255 - Int32(clamp(y &+ cbB[cb]))
                }
                let kk = Int32(k[x])
                out[3 * x] = UInt8((c0 * kk + 127) / 255)
                out[3 * x + 1] = UInt8((c1 * kk + 127) / 255)
                out[3 * x + 2] = UInt8((c2 * kk + 127) / 255)
            }
        }
    }
}
