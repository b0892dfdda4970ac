/// How much a decoder may be asked to do: both limits are checked before
/// anything large is allocated, so a hostile header cannot make us reserve
/// memory for a picture it does not contain.
public struct ImageLimits: Sendable, Equatable {
    /// Largest width × height accepted (default 64 Mpx: a 9000×7000 photo).
    public var maxPixels: Int
    /// Largest file accepted, in bytes (default 32 MiB).
    public var maxFileBytes: Int

    public static let defaultMaxPixels = 64 * 1024 * 1024
    public static let defaultMaxFileBytes = 32 * 1024 * 1024

    public init(maxPixels: Int = ImageLimits.defaultMaxPixels, maxFileBytes: Int = ImageLimits.defaultMaxFileBytes) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }

    /// Refuses a size with a zero side or more pixels than `maxPixels`
    /// (multiplied without overflow: each side is at most 2^31 in every format).
    func check(width: Int, height: Int, format: ImageFormat) throws(ImageError) {
        guard width > 0, height > 0 else { throw .badSize(format, width: width, height: height) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .tooManyPixels(format, width: width, height: height, limit: maxPixels)
        }
    }

    func check(fileBytes: Int) throws(ImageError) {
        guard fileBytes <= maxFileBytes else { throw .fileTooLarge(bytes: fileBytes, limit: maxFileBytes) }
    }
}
