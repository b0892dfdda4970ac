/// A rectangular RGB image: the source every puzzle is cut from.
///
/// Pixels are stored row-major (`pixels[y * width + x]`). Sizes are bounded
/// (`maxSide`, `maxPixelCount`) so that an untrusted header can never make
/// us allocate absurd amounts of memory.
public struct Picture: Equatable, Sendable {
    /// Largest width or height accepted anywhere.
    public static let maxSide = 8192
    /// Largest width × height accepted anywhere (16 Mi pixels).
    public static let maxPixelCount = 16 * 1024 * 1024

    public let width: Int
    public let height: Int
    /// Row-major pixels; always exactly `width * height` of them.
    public private(set) var pixels: [RGB]

    /// Wraps an existing row-major pixel array.
    ///
    /// - Throws: `sizeOutOfRange` / `tooLarge` for a bad size,
    ///   `pixelCountMismatch` when `pixels.count != width * height`.
    public init(width: Int, height: Int, pixels: [RGB]) throws(PictureError) {
        try Picture.validate(width: width, height: height)
        guard pixels.count == width * height else {
            throw .pixelCountMismatch(expected: width * height, actual: pixels.count)
        }
        self.init(validWidth: width, height: height, pixels: pixels)
    }

    /// Builds a picture by asking `colour` for every pixel, row by row.
    ///
    /// - Throws: `sizeOutOfRange` / `tooLarge` for a bad size.
    public init(width: Int, height: Int, colour: (_ x: Int, _ y: Int) -> RGB) throws(PictureError) {
        try Picture.validate(width: width, height: height)
        var pixels: [RGB] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                pixels.append(colour(x, y))
            }
        }
        self.init(validWidth: width, height: height, pixels: pixels)
    }

    /// For callers that have already validated the size and count.
    init(validWidth width: Int, height: Int, pixels: [RGB]) {
        assert(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y`; both must be inside the picture.
    @inlinable
    public subscript(x x: Int, y y: Int) -> RGB {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return pixels[y * width + x]
    }

    /// Checks a size against the limits without allocating anything.
    public static func validate(width: Int, height: Int) throws(PictureError) {
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw .sizeOutOfRange(width: width, height: height)
        }
        guard width * height <= maxPixelCount else {
            throw .tooLarge(width: width, height: height)
        }
    }
}
