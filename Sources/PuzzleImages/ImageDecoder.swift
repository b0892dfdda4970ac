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
}
