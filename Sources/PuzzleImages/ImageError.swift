import PuzzleCore

/// Why a picture file could not be decoded. Every damaged or hostile file
/// ends in one of these (never a trap or a hang).
///
/// `code` is stable (for logs, scripts and clients); `message` is for people
/// and names what is wrong (which chunk, marker, table or field).
public enum ImageError: Error, Equatable, Sendable {
    /// The file is larger than `ImageLimits.maxFileBytes`.
    case fileTooLarge(bytes: Int, limit: Int)
    /// The header asks for more pixels than `ImageLimits.maxPixels`.
    case tooManyPixels(ImageFormat, width: Int, height: Int, limit: Int)
    /// A width or height of zero (or otherwise impossible).
    case badSize(ImageFormat, width: Int, height: Int)
    /// Neither PNG, JPEG nor PPM.
    case unknownFormat
    /// The data ends before `what` is complete.
    case truncated(ImageFormat, String)
    /// A value that breaks the format's rules; the text says which.
    case damaged(ImageFormat, String)
    /// A checksum (PNG chunk CRC, zlib Adler-32) does not match the data.
    case badChecksum(ImageFormat, String)
    /// Valid in the format but not supported here (e.g. arithmetic-coded JPEG).
    case unsupported(ImageFormat, String)
    /// A PPM file was refused by `Picture(ppm:)`.
    case ppm(PictureError)

    /// A stable short identifier, e.g. `"IMAGE_TRUNCATED"`.
    public var code: String {
        switch self {
        case .fileTooLarge: "IMAGE_FILE_TOO_LARGE"
        case .tooManyPixels: "IMAGE_TOO_MANY_PIXELS"
        case .badSize: "IMAGE_BAD_SIZE"
        case .unknownFormat: "IMAGE_UNKNOWN_FORMAT"
        case .truncated: "IMAGE_TRUNCATED"
        case .damaged: "IMAGE_DAMAGED"
        case .badChecksum: "IMAGE_BAD_CHECKSUM"
        case .unsupported: "IMAGE_UNSUPPORTED"
        case .ppm(let error): error.code
        }
    }

    /// A one-line explanation for people.
    public var message: String {
        switch self {
        case .fileTooLarge(let bytes, let limit): "picture file of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case .tooManyPixels(let format, let w, let h, let limit): "\(format.rawValue) picture \(w)x\(h) exceeds the limit of \(limit) pixels"
        case .badSize(let format, let w, let h): "\(format.rawValue) picture size \(w)x\(h) is not allowed"
        case .unknownFormat: "not a PNG, JPEG or PPM picture"
        case .truncated(let format, let what): "\(format.rawValue) data ends inside \(what)"
        case .damaged(let format, let what): "damaged \(format.rawValue): \(what)"
        case .badChecksum(let format, let what): "\(format.rawValue) checksum mismatch: \(what)"
        case .unsupported(let format, let what): "unsupported \(format.rawValue): \(what)"
        case .ppm(let error): error.message
        }
    }
}

extension ImageError: CustomStringConvertible {
    public var description: String { "\(code): \(message)" }
}
