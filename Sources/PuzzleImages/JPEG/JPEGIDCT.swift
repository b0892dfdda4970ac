/// The inverse DCT of libjpeg's `jpeg_idct_islow` (jidctint.c), operation
/// for operation: 13-bit fixed-point constants, two extra bits between the
/// passes, the same rounding. libjpeg-turbo's SIMD versions of it give the
/// same results, so our samples equal `djpeg -dct int` (its default) before
/// upsampling. Wrapping arithmetic: damaged coefficients give wrong pixels,
/// never a trap.
enum JPEGIDCT {
    static let constBits: Int32 = 13
    static let pass1Bits: Int32 = 2
    static let fix_0_298631336: Int32 = 2446
    static let fix_0_390180644: Int32 = 3196
    static let fix_0_541196100: Int32 = 4433
    static let fix_0_765366865: Int32 = 6270
    static let fix_0_899976223: Int32 = 7373
    static let fix_1_175875602: Int32 = 9633
    static let fix_1_501321110: Int32 = 12299
    static let fix_1_847759065: Int32 = 15137
    static let fix_1_961570560: Int32 = 16069
    static let fix_2_053119869: Int32 = 16819
    static let fix_2_562915447: Int32 = 20995
    static let fix_3_072711026: Int32 = 25172

    /// One block: `coefficients` (natural order) times `quant`, into 8 rows
    /// of 8 samples `stride` apart. `workspace` holds 64 values.
    @inline(__always)
    static func transform(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ workspace: UnsafeMutablePointer<Int32>,
                          _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Pass 1: columns from the input into the workspace, scaled up by 2^pass1Bits.
        for column in 0..<8 {
            let input = coefficients + column, q = quant + column, ws = workspace + column
            if input[8] == 0 && input[16] == 0 && input[24] == 0 && input[32] == 0 && input[40] == 0 && input[48] == 0 && input[56] == 0 {
                let dc = (Int32(input[0]) &* q[0]) &<< pass1Bits
                for row in 0..<8 { ws[row * 8] = dc }
                continue
            }
            var z2 = Int32(input[16]) &* q[16], z3 = Int32(input[48]) &* q[48]
            let z1 = (z2 &+ z3) &* fix_0_541196100
            let tmp2e = z1 &+ z3 &* -fix_1_847759065
            let tmp3e = z1 &+ z2 &* fix_0_765366865
            z2 = Int32(input[0]) &* q[0]
            z3 = Int32(input[32]) &* q[32]
            let tmp0e = (z2 &+ z3) &<< constBits
            let tmp1e = (z2 &- z3) &<< constBits
            let tmp10 = tmp0e &+ tmp3e, tmp13 = tmp0e &- tmp3e
            let tmp11 = tmp1e &+ tmp2e, tmp12 = tmp1e &- tmp2e
            let (tmp0, tmp1, tmp2, tmp3) = oddPart(Int32(input[56]) &* q[56], Int32(input[40]) &* q[40],
                                                   Int32(input[24]) &* q[24], Int32(input[8]) &* q[8])
            let shift = constBits - pass1Bits, round: Int32 = 1 &<< (shift - 1)
            ws[0] = (tmp10 &+ tmp3 &+ round) &>> shift
            ws[56] = (tmp10 &- tmp3 &+ round) &>> shift
            ws[8] = (tmp11 &+ tmp2 &+ round) &>> shift
            ws[48] = (tmp11 &- tmp2 &+ round) &>> shift
            ws[16] = (tmp12 &+ tmp1 &+ round) &>> shift
            ws[40] = (tmp12 &- tmp1 &+ round) &>> shift
            ws[24] = (tmp13 &+ tmp0 &+ round) &>> shift
            ws[32] = (tmp13 &- tmp0 &+ round) &>> shift
        }
        // Pass 2: rows from the workspace into samples, descaled, +128, clamped.
        for row in 0..<8 {
            let ws = workspace + row * 8, out = output + row * stride
            if ws[1] == 0 && ws[2] == 0 && ws[3] == 0 && ws[4] == 0 && ws[5] == 0 && ws[6] == 0 && ws[7] == 0 {
                let value = clamp((ws[0] &+ (1 &<< (pass1Bits + 2))) &>> (pass1Bits + 3))
                for i in 0..<8 { out[i] = value }
                continue
            }
            let z2 = ws[2], z3 = ws[6]
            let z1 = (z2 &+ z3) &* fix_0_541196100
            let tmp2e = z1 &+ z3 &* -fix_1_847759065
            let tmp3e = z1 &+ z2 &* fix_0_765366865
            let tmp0e = (ws[0] &+ ws[4]) &<< constBits
            let tmp1e = (ws[0] &- ws[4]) &<< constBits
            let tmp10 = tmp0e &+ tmp3e, tmp13 = tmp0e &- tmp3e
            let tmp11 = tmp1e &+ tmp2e, tmp12 = tmp1e &- tmp2e
            let (tmp0, tmp1, tmp2, tmp3) = oddPart(ws[7], ws[5], ws[3], ws[1])
            let shift = constBits + pass1Bits + 3, round: Int32 = 1 &<< (shift - 1)
            out[0] = clamp((tmp10 &+ tmp3 &+ round) &>> shift)
            out[7] = clamp((tmp10 &- tmp3 &+ round) &>> shift)
            out[1] = clamp((tmp11 &+ tmp2 &+ round) &>> shift)
            out[6] = clamp((tmp11 &- tmp2 &+ round) &>> shift)
            out[2] = clamp((tmp12 &+ tmp1 &+ round) &>> shift)
            out[5] = clamp((tmp12 &- tmp1 &+ round) &>> shift)
            out[3] = clamp((tmp13 &+ tmp0 &+ round) &>> shift)
            out[4] = clamp((tmp13 &- tmp0 &+ round) &>> shift)
        }
    }

    /// The odd part of both passes (jidctint.c's second half of each): from
    /// the inputs at rows or columns 7, 5, 3 and 1 to `tmp0...tmp3`.
    @inline(__always)
    static func oddPart(_ in7: Int32, _ in5: Int32, _ in3: Int32, _ in1: Int32) -> (Int32, Int32, Int32, Int32) {
        var tmp0 = in7, tmp1 = in5, tmp2 = in3, tmp3 = in1
        var z1 = tmp0 &+ tmp3
        var z2 = tmp1 &+ tmp2
        var z3 = tmp0 &+ tmp2
        var z4 = tmp1 &+ tmp3
        let z5 = (z3 &+ z4) &* fix_1_175875602
        tmp0 = tmp0 &* fix_0_298631336
        tmp1 = tmp1 &* fix_2_053119869
        tmp2 = tmp2 &* fix_3_072711026
        tmp3 = tmp3 &* fix_1_501321110
        z1 = z1 &* -fix_0_899976223
        z2 = z2 &* -fix_2_562915447
        z3 = z3 &* -fix_1_961570560
        z4 = z4 &* -fix_0_390180644
        z3 = z3 &+ z5
        z4 = z4 &+ z5
        return (tmp0 &+ z1 &+ z3, tmp1 &+ z2 &+ z4, tmp2 &+ z2 &+ z3, tmp3 &+ z1 &+ z4)
    }

    /// A sample centred on 0, moved to 0...255. (libjpeg's range-limit
    /// table wraps values beyond ±512, which only damaged data reaches.)
    @inline(__always)
    static func clamp(_ value: Int32) -> UInt8 {
        let v = value &+ 128
        return v < 0 ? 0 : (v > 255 ? 255 : UInt8(truncatingIfNeeded: v))
    }
}
