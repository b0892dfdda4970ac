import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleSystem

/// One uploaded picture to check, decode and store, off the event loop (on
/// `PictureUploads`' `BackgroundWorker`): a 12-megapixel JPEG takes a few
/// hundred milliseconds to decode and a 10 MiB file's fsync some more.
struct UploadJob: Sendable {
    /// What a job found: the picture stored (its record still to be written,
    /// on the loop), or why not.
    struct Finished: Sendable {
        var token: UInt64
        var name: String
        var outcome: Result<Stored, ProtocolError>
    }

    struct Stored: Sendable {
        var entry: UploadStore.Entry
        /// The picture as the library keeps it (at most `PictureLibrary.keptSide` a side).
        var image: RGBImage
        /// The decoded picture's size, upright (EXIF orientation applied).
        var width: Int
        var height: Int
    }

    /// The connection that uploads.
    var token: UInt64
    var name: String
    var bytes: [UInt8]
    /// What the name means already, if anything: other content is refused before it is written.
    var existing: UploadStore.Entry?
    var limits: ImageLimits
    var picturesDirectory: String
    /// Whether the content file is synced.
    var sync: Bool

    /// Checks and stores the picture (on the worker's thread).
    func run() -> Finished {
        Finished(token: token, name: name,
                 outcome: Self.store(bytes, name: name, existing: existing, limits: limits, picturesDirectory: picturesDirectory, sync: sync))
    }

    /// Decodes first (nothing undecodable is ever written), then writes the
    /// file by its content's hash, synced.
    static func store(_ bytes: [UInt8], name: String, existing: UploadStore.Entry?, limits: ImageLimits, picturesDirectory: String,
                      sync: Bool) -> Result<Stored, ProtocolError> {
        let format = ImageFormat.sniff(bytes)
        guard format == .png || format == .jpeg else {
            return .failure(.badPicture("an uploaded picture is a PNG or a JPEG file; this is \(format.map { "a \($0.rawValue) file" } ?? "neither")"))
        }
        // Decoded straight into the kept size: a 64 Mpx picture is never
        // held whole (PROTOCOL.md, Uploaded pictures: memory).
        let decoded: (image: RGBImage, width: Int, height: Int)
        do {
            decoded = try ImageDecoder.decode(bytes, limits: limits, fitting: PictureLibrary.keptSide)
        } catch {
            return .failure(.badPicture("\(error.code): \(error.message)"))
        }
        let kept = decoded.image
        let entry = UploadStore.Entry(sha256: SHA256.hex(bytes), fileExtension: format == .png ? "png" : "jpg", bytes: bytes.count)
        if let existing, existing != entry { return .failure(.pictureExists(name, "uploaded before, with other content")) }
        do {
            try UploadStore.write(bytes, as: entry, in: picturesDirectory, sync: sync)
        } catch {
            return .failure(.storage("the server could not store the picture (\(error)); nothing was stored"))
        }
        UploadStore.writeKept(kept, of: entry, in: picturesDirectory)
        return .success(Stored(entry: entry, image: kept, width: decoded.width, height: decoded.height))
    }
}
