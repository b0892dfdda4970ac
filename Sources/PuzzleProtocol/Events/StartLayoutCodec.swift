import PuzzleCore

/// `LAYOUT`'s reply in its compact form: every piece's start place in three
/// bytes, base64 in `S start table <base64>` lines (a jigsaw's slots) or
/// `S start cell <base64>` lines (a swap board's shuffle). Piece `i` is bytes
/// `3i ..< 3i+3`, so four base64 characters a piece and a line can end after
/// any piece. For a table place the bytes are the slot's `x / 5`, `y / 5`
/// (slots are the points `(5i, 5j)`, see *Table layout*) and the rotation;
/// for a cell its row, column and rotation. A 100x100 jigsaw's layout is 40 KB
/// this way against 284 KB of `S piece` lines: a client without the core
/// (the browser page) pays it once a puzzle.
public enum StartLayoutCodec {
    /// Base64 characters per line at most: whole pieces, and each line
    /// decodes on its own.
    public static let lineChars = 4096

    /// Appends the `S start ...` lines for `pieces` (each with its LF), or
    /// returns false and appends nothing when a place does not fit the form:
    /// a table point off the slot grid or past 255 slots, a cell past 255,
    /// the two kinds mixed. The caller then lists `S piece` lines.
    public static func encode(_ pieces: [PieceState], into out: inout [UInt8]) -> Bool {
        let pitch = TableSlots.pitch
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pieces.count * 3)
        var kind: String?
        for piece in pieces {
            let a: Int, b: Int, k: String
            switch piece.location {
            case .table(let p):
                guard p.x % pitch == 0, p.y % pitch == 0 else { return false }
                (a, b, k) = (p.x / pitch, p.y / pitch, "table")
            case .board(let c):
                (a, b, k) = (c.row, c.col, "cell")
            }
            guard (0...255).contains(a), (0...255).contains(b), (0...3).contains(piece.rotation), kind == nil || kind == k else { return false }
            kind = k
            bytes += [UInt8(a), UInt8(b), UInt8(piece.rotation)]
        }
        guard let kind else { return false }
        let perLine = lineChars / 4 * 3
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + perLine)
            out.append(text: "S start \(kind) ")
            out.append(text: UploadChunk.encode(bytes[start..<end]))
            out.append(UInt8(ascii: "\n"))
            start = end
        }
        return true
    }

    /// The start places the `S start` lines among `lines` give (other lines
    /// skipped; the leading `S ` optional), or nil unless they are well formed
    /// and give exactly `count` pieces.
    public static func decode(_ lines: [Substring], count: Int) -> [PieceState]? {
        var bytes: [UInt8] = []
        var kind: Substring?
        for line in lines {
            let w = line.split(separator: " ")
            let at = w.first == "S" ? 1 : 0
            guard w.count > at, w[at] == "start" else { continue }
            guard w.count == at + 3, w[at + 1] == "table" || w[at + 1] == "cell", kind == nil || kind == w[at + 1],
                  bytes.count + w[at + 2].utf8.count / 4 * 3 <= count * 3,
                  UploadChunk.decode(w[at + 2].utf8, into: &bytes) else { return nil }
            kind = w[at + 1]
        }
        guard bytes.count == count * 3, (0..<count).allSatisfy({ bytes[3 * $0 + 2] <= 3 }) else { return nil }
        return (0..<count).map { i in
            let a = Int(bytes[3 * i]), b = Int(bytes[3 * i + 1]), rotation = Int(bytes[3 * i + 2])
            return PieceState(location: kind == "table" ? .table(Point(x: a * TableSlots.pitch, y: b * TableSlots.pitch))
                                                         : .board(Cell(row: a, col: b)), rotation: rotation)
        }
    }
}
