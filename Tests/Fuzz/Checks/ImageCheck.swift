import PuzzleImages

/// PNG and JPEG files come from hosts' picture folders (and later from
/// players). Decoding must end in a typed `ImageError` or a consistent image
/// within the limits (never a trap, a hang or an allocation the limits do not
/// allow), and decoding the same bytes twice gives the same pixels.
enum ImageCheck {
    /// Small enough that no input can make the fuzzer's 256 MiB allocations.
    static let limits = ImageLimits(maxPixels: 4 * 1024 * 1024, maxFileBytes: 1024 * 1024)

    static func run(_ input: [UInt8], as format: ImageFormat, target: FuzzTarget) throws(FuzzFailure) {
        let decode: ([UInt8]) throws(ImageError) -> RGBImage = format == .png
            ? { bytes throws(ImageError) in try PNGDecoder.decode(bytes, limits: limits) }
            : { bytes throws(ImageError) in try JPEGDecoder.decode(bytes, limits: limits) }
        let image: RGBImage
        do { image = try decode(input) } catch {
            try require(!error.message.isEmpty && !error.code.isEmpty, target, "an error without a code or message")
            return
        }
        try require(image.width > 0 && image.height > 0 && image.width * image.height <= limits.maxPixels, target,
                    "decoded a \(image.width)x\(image.height) image past the limit")
        try require(image.rgb.count == image.width * image.height * 3, target, "\(image.rgb.count) samples for \(image.width)x\(image.height)")
        let again = try? decode(input)
        try require(again == image, target, "decoding the same \(input.count) bytes twice gave different pixels")
        if ImageFormat.sniff(input) == format {
            try require((try? ImageDecoder.decode(input, limits: limits)) == image, target, "ImageDecoder and the \(format) decoder disagree")
        }
    }
}
