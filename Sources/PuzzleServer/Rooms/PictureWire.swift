import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleWeb

/// A room's picture as the wire carries it apart from snapshots: its content
/// hash (what a compact snapshot names) and the `PICTURE` reply's `S png`
/// lines, a PNG in base64. Made once per picture and kept by its room, so a
/// thousand joins cost one encoding.
struct PictureWire {
    /// Base64 characters per `S png` line (a multiple of 4, so each line
    /// decodes on its own too).
    static let lineChars = 4096

    let width: Int
    let height: Int
    let hash: String
    /// The `S png ...` lines, each with its LF.
    let lines: [UInt8]

    init(_ picture: Picture) {
        width = picture.width
        height = picture.height
        hash = picture.contentHashHex
        let text = Array(Base64.encode(PNGEncoder.encode(picture)).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + (text.count / Self.lineChars + 1) * 7)
        var i = 0
        while i < text.count {
            let end = min(text.count, i + Self.lineChars)
            out.append(ascii: "S png ")
            out.append(contentsOf: text[i..<end])
            out.append(UInt8(ascii: "\n"))
            i = end
        }
        lines = out
    }
}
