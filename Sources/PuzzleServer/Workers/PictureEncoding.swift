import PuzzleCore
import PuzzleProtocol

/// A room's picture to encode for `PICTURE` off the loop (issue 31: the
/// first PICTURE of a 100x100 encoded its PNG in 20 ms, and a bystander's
/// PING waited that long). The connection that asked waits, its PICTURE
/// deferred, and is answered again once the room keeps the encoded lines.
struct PictureEncoding: Sendable {
    /// The connection that asked (filled in by the loop).
    var token: UInt64 = 0
    let room: String
    let picture: Picture
    let format: PictureFormat
    /// The picture's content hash: the room keeps the lines only if its
    /// picture is still this one.
    let hash: String

    struct Done: Sendable {
        let encoding: PictureEncoding
        let wire: PictureWire
    }

    /// Encodes the file and its lines (on the worker's thread).
    func run() -> Done {
        Done(encoding: self, wire: PictureWire(picture, format: format, hash: hash))
    }
}
