/// The picture file formats the decoders read, told apart by content (never
/// by file name).
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case ppm = "PPM"

    /// The format whose signature `bytes` start with, or nil.
    ///
    /// PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`. JPEG: SOI
    /// (`FF D8`) followed by another marker's `FF`. PPM: `P3` or `P6`.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "3") || bytes[1] == UInt8(ascii: "6") { return .ppm }
        return nil
    }
}
