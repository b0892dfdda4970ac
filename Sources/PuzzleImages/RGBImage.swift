import PuzzleCore

/// A decoded picture: 8-bit RGB samples, three bytes a pixel, row-major with
/// no padding (`rgb[(y * width + x) * 3 + c]`). What every decoder hands out;
/// `picture(...)` turns it into a PuzzleCore `Picture` sized for a board.
public struct RGBImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Exactly `width * height * 3` bytes.
    public internal(set) var rgb: [UInt8]

    /// Wraps samples; `rgb` must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(width > 0 && height > 0 && rgb.count == width * height * 3, "RGBImage \(width)x\(height) needs \(width * height * 3) bytes, got \(rgb.count)")
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x x: Int, y y: Int) -> RGB {
        let i = (y * width + x) * 3
        return RGB(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2])
    }

    /// The image as a PPM (P6, maxval 255), e.g. to compare with `djpeg` output.
    public func ppm() -> [UInt8] {
        Array("P6\n\(width) \(height)\n255\n".utf8) + rgb
    }

    /// A PPM picture as an image (PPM is decoded by `Picture(ppm:)`, whose
    /// limits are smaller than ours).
    init(_ picture: Picture) {
        var rgb = [UInt8](repeating: 0, count: picture.width * picture.height * 3)
        for (i, p) in picture.pixels.enumerated() {
            rgb[i * 3] = p.r
            rgb[i * 3 + 1] = p.g
            rgb[i * 3 + 2] = p.b
        }
        self.init(width: picture.width, height: picture.height, rgb: rgb)
    }
}
