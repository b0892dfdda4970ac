/// Why a picture could not be made: from PPM bytes, from wire hex rows, or
/// from a raw pixel array.
///
/// Each case has a stable `code` (safe to send to clients and match in
/// scripts) and a human `message` (for logs; wording may change).
public enum PictureError: Error, Equatable, Sendable {
    /// The data does not start with `P3` or `P6` followed by whitespace.
    case badMagic
    /// The data ended inside the header or before the last pixel.
    case truncated
    /// A header field or P3 sample is not a decimal number; carries the
    /// offending token (cut to a few characters).
    case badNumber(String)
    /// The maxval is outside 1...65535.
    case maxValueOutOfRange(Int)
    /// A sample is larger than the maxval the header declared.
    case sampleOutOfRange(Int)
    /// Width or height is outside `1...Picture.maxSide`.
    case sizeOutOfRange(width: Int, height: Int)
    /// Both sides are allowed but together exceed `Picture.maxPixelCount`.
    case tooLarge(width: Int, height: Int)
    /// The pixel array does not hold exactly width × height pixels.
    case pixelCountMismatch(expected: Int, actual: Int)
    /// The number of hex rows is not the picture height.
    case rowCountMismatch(expected: Int, actual: Int)
    /// A hex row has the wrong length or a non-hex character; carries the row index.
    case badHexRow(Int)

    /// A stable short identifier, e.g. `"PPM_TRUNCATED"`.
    public var code: String {
        switch self {
        case .badMagic: "PPM_BAD_MAGIC"
        case .truncated: "PPM_TRUNCATED"
        case .badNumber: "PPM_BAD_NUMBER"
        case .maxValueOutOfRange: "PPM_MAXVAL_RANGE"
        case .sampleOutOfRange: "PPM_SAMPLE_RANGE"
        case .sizeOutOfRange: "PICTURE_SIZE_RANGE"
        case .tooLarge: "PICTURE_TOO_LARGE"
        case .pixelCountMismatch: "PICTURE_PIXEL_COUNT"
        case .rowCountMismatch: "PICTURE_ROW_COUNT"
        case .badHexRow: "PICTURE_BAD_HEX_ROW"
        }
    }

    /// A one-line explanation for people.
    public var message: String {
        switch self {
        case .badMagic:
            "not a PPM picture: expected P3 or P6"
        case .truncated:
            "PPM data ends too early"
        case .badNumber(let token):
            "expected a decimal number, found \"\(token)\""
        case .maxValueOutOfRange(let value):
            "PPM maxval \(value) is outside 1...65535"
        case .sampleOutOfRange(let value):
            "PPM sample \(value) is larger than the maxval"
        case .sizeOutOfRange(let width, let height):
            "picture size \(width)x\(height) is outside 1...\(Picture.maxSide) per side"
        case .tooLarge(let width, let height):
            "picture size \(width)x\(height) exceeds \(Picture.maxPixelCount) pixels"
        case .pixelCountMismatch(let expected, let actual):
            "picture needs \(expected) pixels, got \(actual)"
        case .rowCountMismatch(let expected, let actual):
            "picture needs \(expected) rows, got \(actual)"
        case .badHexRow(let row):
            "row \(row) is not the right number of rrggbb colours"
        }
    }
}

extension PictureError: CustomStringConvertible {
    public var description: String { "\(code): \(message)" }
}
