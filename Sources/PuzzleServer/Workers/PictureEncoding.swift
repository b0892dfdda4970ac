import PuzzleCore
import PuzzleProtocol

/// A room's picture to encode for `PICTURE` off the loop (issue 31: the
/// first PICTURE of a 100x100 encoded its PNG in 20 ms, and a bystander's
/// PING waited that long). The connections that asked wait, their PICTURE
/// deferred, and are answered again once the room keeps the encoded lines.
struct PictureEncoding: Sendable {
    let room: String
    let picture: Picture
    let format: PictureFormat
    /// The picture's content hash: the room keeps the lines only if its
    /// picture is still this one.
    let hash: String

    /// What this encoding makes, for those who wait for it (`PictureWaiters`).
    var key: PictureWaiters.Key { PictureWaiters.Key(room: room, format: format, hash: hash) }

    struct Done: Sendable {
        let encoding: PictureEncoding
        let wire: PictureWire
    }

    /// Encodes the file and its lines (on the worker's thread).
    func run() -> Done {
        Done(encoding: self, wire: PictureWire(picture, format: format, hash: hash))
    }
}
