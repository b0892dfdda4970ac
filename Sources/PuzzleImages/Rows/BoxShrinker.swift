/// Box-filters a picture down as its rows arrive, in any order and in parts
/// (Adam7 passes): each pixel is added to the sums of the one output pixel
/// whose box holds it, so only the output's sums are kept (12 bytes an
/// output pixel), never the picture.
///
/// The boxes are `RGBImage.picture(fitting:)`'s, drawn on the upright
/// picture (after the EXIF orientation) and mapped back to the stored rows
/// and columns, so a picture shrunk here, then turned upright, has exactly
/// the pixels of the whole picture decoded, turned and then shrunk.
struct BoxShrinker: ImageRowSink {
    /// The stored picture's size (what the decoder hands over).
    let sourceWidth: Int
    let sourceHeight: Int
    let orientation: Int
    /// Output pixels along the stored x and y axes.
    let binsX: Int
    let binsY: Int
    /// `binOfX[x]`: the output column (stored axes) of source column x.
    private var binOfX: [Int32]
    private var binOfY: [Int32]
    /// `startX[b] ..< startX[b + 1]`: the source columns of output column b.
    private let startX: [Int]
    private let startY: [Int]
    /// Three sums an output pixel, rows of `binsX`.
    private var sums: [UInt32]

    /// The upright size of a `width`×`height` stored picture fitted within
    /// `maxSide` (shape kept, as `RGBImage.picture(fitting:)`).
    static func fittedSize(width: Int, height: Int, orientation: Int, maxSide: Int) -> (width: Int, height: Int) {
        let swaps = (5...8).contains(orientation)
        let w = swaps ? height : width, h = swaps ? width : height
        let scale = max(w, h)
        guard scale > maxSide else { return (w, h) }
        return (max(1, w * maxSide / scale), max(1, h * maxSide / scale))
    }

    /// A shrinker from a `sourceWidth`×`sourceHeight` stored picture to an
    /// upright `width`×`height` one (each no larger than the source's side
    /// it comes from). A picture decoded at 1/`reduction` scale gives its
    /// size in pixels too (`pixelWidth`, `pixelHeight`): the boxes are drawn
    /// on the pixels, and each sample goes to the box that holds its middle
    /// pixel, so that a side's last sample, which covers only part of a
    /// sample's pixels, shifts no box where the orientation reverses it.
    init(sourceWidth: Int, sourceHeight: Int, reduction: Int = 1, pixelWidth: Int? = nil, pixelHeight: Int? = nil,
         orientation: Int, width: Int, height: Int, format: ImageFormat) throws(ImageError) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        let swaps = (5...8).contains(self.orientation)
        binsX = swaps ? height : width
        binsY = swaps ? width : height
        precondition(binsX >= 1 && binsX <= sourceWidth && binsY >= 1 && binsY <= sourceHeight)
        startX = Self.boundaries(sourceWidth, pixels: pixelWidth ?? sourceWidth, reduction: reduction, bins: binsX,
                                 reversed: [2, 3, 7, 8].contains(self.orientation))
        startY = Self.boundaries(sourceHeight, pixels: pixelHeight ?? sourceHeight, reduction: reduction, bins: binsY,
                                 reversed: [3, 4, 6, 7].contains(self.orientation))
        binOfX = Self.owners(startX)
        binOfY = Self.owners(startY)
        // The sums are 32-bit: a box of up to 16 Mpx (a picture of 2^28
        // pixels never makes one larger than 2 Mpx).
        let widest = zip(startX.dropFirst(), startX).map { $0 - $1 }.max()!
        let tallest = zip(startY.dropFirst(), startY).map { $0 - $1 }.max()!
        guard widest * tallest <= Int(UInt32.max) / 255 else {
            throw .tooManyPixels(format, width: sourceWidth, height: sourceHeight, limit: sourceWidth * sourceHeight - 1)
        }
        sums = [UInt32](repeating: 0, count: binsX * binsY * 3)
    }

    /// Where each of `bins` boxes starts along an axis of `length`, plus
    /// `length`: box k holds `k * length / bins ..< (k + 1) * length / bins`
    /// counted from the upright picture's side, which is the axis's far end
    /// when the orientation reverses it.
    ///
    /// At a reduced scale the boxes are the pixels' (`pixels` along the
    /// axis): sample i goes to the box of pixel `i * reduction + reduction / 2`.
    private static func boundaries(_ length: Int, pixels: Int, reduction: Int, bins: Int, reversed: Bool) -> [Int] {
        let pixelStarts = (0...bins).map { k in reversed ? pixels - (bins - k) * pixels / bins : k * pixels / bins }
        guard reduction > 1 else { return pixelStarts }
        // The first sample whose middle pixel is at or past each box's first pixel.
        return (0...bins).map { k in
            if k == 0 { return 0 }
            if k == bins { return length }
            let p = pixelStarts[k]
            // i * reduction + reduction / 2 >= p
            return min(length, max(0, (p - reduction / 2 + reduction - 1) / reduction))
        }
    }

    private static func owners(_ starts: [Int]) -> [Int32] {
        var owner = [Int32](repeating: 0, count: starts.last!)
        for b in 0 ..< starts.count - 1 {
            for i in starts[b] ..< starts[b + 1] { owner[i] = Int32(b) }
        }
        return owner
    }

    mutating func add(row y: Int, x0: Int, dx: Int, count: Int, rgb: UnsafePointer<UInt8>) {
        let row = Int(binOfY[y]) * binsX * 3
        let binsX = binsX
        sums.withUnsafeMutableBufferPointer { sums in
            let out = sums.baseAddress! + row
            if x0 == 0 && dx == 1 && count == sourceWidth {
                // A whole row: box by box, one store per box.
                startX.withUnsafeBufferPointer { startX in
                    for b in 0..<binsX {
                        var r: UInt32 = 0, g: UInt32 = 0, bl: UInt32 = 0
                        var s = rgb + startX[b] * 3
                        for _ in startX[b] ..< startX[b + 1] {
                            r &+= UInt32(s[0]); g &+= UInt32(s[1]); bl &+= UInt32(s[2])
                            s += 3
                        }
                        out[b * 3] &+= r; out[b * 3 + 1] &+= g; out[b * 3 + 2] &+= bl
                    }
                }
                return
            }
            binOfX.withUnsafeBufferPointer { binOfX in
                for i in 0..<count {
                    let o = out + Int(binOfX[x0 + i * dx]) * 3, s = rgb + i * 3
                    o[0] &+= UInt32(s[0]); o[1] &+= UInt32(s[1]); o[2] &+= UInt32(s[2])
                }
            }
        }
    }

    /// The averages (rounded as `picture(fitting:)` rounds), upright.
    var image: RGBImage {
        var rgb = [UInt8](repeating: 0, count: binsX * binsY * 3)
        for by in 0..<binsY {
            let h = UInt32(startY[by + 1] - startY[by])
            for bx in 0..<binsX {
                // At a reduced scale a box may hold no sample (never at full scale).
                let n = max(1, h * UInt32(startX[bx + 1] - startX[bx]))
                let i = (by * binsX + bx) * 3
                for c in 0..<3 { rgb[i + c] = UInt8((sums[i + c] + n / 2) / n) }
            }
        }
        return RGBImage(width: binsX, height: binsY, rgb: rgb).oriented(orientation)
    }
}
