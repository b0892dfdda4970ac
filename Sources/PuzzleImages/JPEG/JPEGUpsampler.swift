/// Brings one component row up to full resolution the way libjpeg-turbo's
/// default ("fancy") upsampling does (jdsample.c): triangle filters for
/// 2:1 horizontally (h2v1), vertically (h1v2) and both (h2v2), with the
/// same rounding biases and edge rules (the first and last row and column
/// repeat); other whole ratios repeat samples (int_upsample).
struct JPEGUpsampler {
    let plane: UnsafePointer<UInt8>
    let stride: Int
    /// The component's own size (libjpeg's downsampled width and height).
    let width: Int
    let height: Int
    let ratioH: Int
    let ratioV: Int

    /// Writes output row `y` (at least `width * ratioH` samples) into `out`,
    /// or returns the plane's row when no upsampling is needed.
    func row(_ y: Int, into out: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        if ratioH == 1 && ratioV == 1 { return plane + y * stride }
        let w = width
        if ratioH == 2 && ratioV == 1 && w > 2 {
            let input = plane + y * stride
            out[0] = input[0]
            out[1] = UInt8((Int(input[0]) * 3 + Int(input[1]) + 2) >> 2)
            for i in 1 ..< w - 1 {
                let v = Int(input[i]) * 3
                out[2 * i] = UInt8((v + Int(input[i - 1]) + 1) >> 2)
                out[2 * i + 1] = UInt8((v + Int(input[i + 1]) + 2) >> 2)
            }
            out[2 * w - 2] = UInt8((Int(input[w - 1]) * 3 + Int(input[w - 2]) + 1) >> 2)
            out[2 * w - 1] = input[w - 1]
            return UnsafePointer(out)
        }
        if ratioV == 2 && (ratioH == 1 || (ratioH == 2 && w > 2)) {
            let inRow = min(y / 2, height - 1)
            let near = plane + inRow * stride
            let far = plane + max(0, min(height - 1, y & 1 == 0 ? inRow - 1 : inRow + 1)) * stride
            if ratioH == 1 {
                let bias = y & 1 == 0 ? 1 : 2
                for i in 0..<w { out[i] = UInt8((Int(near[i]) * 3 + Int(far[i]) + bias) >> 2) }
                return UnsafePointer(out)
            }
            var this = Int(near[0]) * 3 + Int(far[0])
            var next = Int(near[1]) * 3 + Int(far[1])
            out[0] = UInt8((this * 4 + 8) >> 4)
            out[1] = UInt8((this * 3 + next + 7) >> 4)
            var last = this
            this = next
            for i in 1 ..< w - 1 {
                next = Int(near[i + 1]) * 3 + Int(far[i + 1])
                out[2 * i] = UInt8((this * 3 + last + 8) >> 4)
                out[2 * i + 1] = UInt8((this * 3 + next + 7) >> 4)
                last = this
                this = next
            }
            out[2 * w - 2] = UInt8((this * 3 + last + 8) >> 4)
            out[2 * w - 1] = UInt8((this * 4 + 7) >> 4)
            return UnsafePointer(out)
        }
        let input = plane + min(y / ratioV, height - 1) * stride
        for i in 0 ..< w {
            let v = input[i]
            for j in 0..<ratioH { out[i * ratioH + j] = v }
        }
        return UnsafePointer(out)
    }
}
