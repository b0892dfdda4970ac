import PuzzleCore

/// Decodes a picture file of any supported format, told by its content.
public enum ImageDecoder {
    /// PNG, JPEG (EXIF orientation applied) or PPM, sniffed from the first bytes.
    ///
    /// - Throws: `ImageError`, naming what is wrong; never traps on bad data.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> RGBImage {
        try limits.check(fileBytes: bytes.count)
        switch ImageFormat.sniff(bytes) {
        case .png: return try PNGDecoder.decode(bytes, limits: limits)
        case .jpeg: return try JPEGDecoder.decode(bytes, limits: limits)
        case .ppm:
            do {
                return RGBImage(try Picture(ppm: bytes))
            } catch {
                throw .ppm(error)
            }
        case nil: throw .unknownFormat
        }
    }

    /// A PNG or JPEG decoded straight into at most `maxSide` pixels a side
    /// (box-filtered, shape kept, upright), and the picture's full upright
    /// size, without ever holding the full-size picture: PNG rows and JPEG
    /// block rows are added to the output's boxes as they are decoded, and
    /// a JPEG much larger than `maxSide` is decoded at 1/2, 1/4 or 1/8
    /// scale from fewer of its coefficients. A PNG gives exactly the pixels
    /// of `decode(_:limits:)` then `picture(fitting:)`; a JPEG decoded at a
    /// reduced scale differs from them by a few levels.
    ///
    /// - Throws: `ImageError`; a PPM is `unknownFormat` here (it is decoded whole).
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits(), fitting maxSide: Int) throws(ImageError) -> (image: RGBImage, width: Int, height: Int) {
        precondition(maxSide >= 1)
        try limits.check(fileBytes: bytes.count)
        switch ImageFormat.sniff(bytes) {
        case .png: return try PNGDecoder.decode(bytes, limits: limits, fitting: maxSide)
        case .jpeg: return try JPEGDecoder.decode(bytes, limits: limits, fitting: maxSide)
        case .ppm, nil: throw .unknownFormat
        }
    }
}
