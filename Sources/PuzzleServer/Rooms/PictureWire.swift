import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleWeb

/// A room's picture as the wire carries it apart from snapshots: its content
/// hash (what a compact snapshot names) and the `PICTURE` reply's lines, a
/// PNG (`S png`) or a JPEG (`S jpeg`) file in base64, written by
/// `PictureLines`. Made once per picture and format and kept by its room, so
/// a thousand joins cost one encoding.
struct PictureWire: Sendable {
    let width: Int
    let height: Int
    let hash: String
    /// The `S png ...` or `S jpeg ...` lines, each with its LF.
    let lines: [UInt8]

    init(_ picture: Picture, format: PictureFormat, hash: String) {
        width = picture.width
        height = picture.height
        self.hash = hash
        let file = switch format {
        case .png: PNGEncoder.encode(picture)
        case .jpeg: JPEGEncoder.encode(picture)
        }
        var out: [UInt8] = []
        PictureLines.encodeFile(base64: Array(Base64.encode(file).utf8), format: format, into: &out)
        lines = out
    }
}
