import Testing
import PuzzleCore
import PuzzleProtocol

/// A picture's lines: written as the server wrote them by hand before, read
/// back by the same codec, and anything else refused.
@Suite struct PictureLinesTests {
    static let picture = Picture.builtin("sunset", width: 3, height: 2)!

    func text(_ write: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        write(&out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes the server's `sendReplay`, `SnapshotCodec` and `PictureWire`
    /// wrote inline before there was a codec.
    @Test func linesAreWhatTheServerWroteByHand() {
        let rows = Self.picture.hexRows()
        #expect(text { PictureLines.encodePixels(Self.picture, into: &$0) } == "S picture 3 2\nS px \(rows[0])\nS px \(rows[1])\n")
        #expect(text { PictureLines.encodeSize(width: 3, height: 2, hash: "0123456789abcdef", into: &$0) } == "S picture 3 2 0123456789abcdef\n")
        let base64 = Array(String(repeating: "QUJD", count: 2_000).utf8)
        let lines = text { PictureLines.encodeFile(base64: base64, format: .jpeg, into: &$0) }.split(separator: "\n")
        #expect(lines.map(\.utf8.count) == [7 + 4096, 7 + 8000 - 4096])
        #expect(lines.allSatisfy { $0.hasPrefix("S jpeg QUJD") })
        #expect(text { PictureLines.encodeFile(base64: [UInt8](), format: .png, into: &$0) } == "")
    }

    @Test func linesReadBack() throws {
        var rows: [String] = []
        var size: (Int, Int)?
        for line in text({ PictureLines.encodePixels(Self.picture, into: &$0) }).split(separator: "\n") {
            switch PictureLines.decode(line) {
            case .size(let w, let h, nil)?: size = (w, h)
            case .row(let row)?: rows.append(row)
            default: Issue.record("unread: \(line)")
            }
        }
        let (w, h) = try #require(size)
        #expect(try Picture(width: w, height: h, hexRows: rows) == Self.picture)
        #expect(PictureLines.decode("S picture 3 2 0123456789abcdef") == .size(width: 3, height: 2, hash: "0123456789abcdef"))
        #expect(PictureLines.decode("picture  3 2") == .size(width: 3, height: 2, hash: nil))
        #expect(PictureLines.decode("S png QUJD") == .file(.png, "QUJD"))
        #expect(PictureLines.decode("jpeg QUJD") == .file(.jpeg, "QUJD"))
    }

    /// Numbers as the protocol writes them (no `+`, no junk, within an
    /// `Int`), a hash as `Picture.contentHashHex` writes it, exactly the words.
    @Test func otherLinesAreRefused() {
        for line in ["S picture +3 2", "S picture 3 -", "S picture x3 2", "S picture 3 2x", "S picture 99999999999999999999 2",
                     "S picture 3", "S picture 3 2 0123456789ABCDEF", "S picture 3 2 abc", "S picture 3 2 0123456789abcdef x",
                     "S px", "S px ff0000 00ff00", "S png", "S png QUJD QUJD", "S gif QUJD", "S room x", "", "S"] {
            #expect(PictureLines.decode(line[...]) == nil, "\(line)")
        }
    }
}
