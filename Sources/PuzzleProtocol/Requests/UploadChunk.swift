/// How an upload's bytes travel: `DATA <base64>` lines after `UPLOAD <name>
/// <bytes>` was accepted, each line standard base64 on its own (RFC 4648,
/// padded, only its last quad may carry `=`), so every line fits the
/// server's `max_line_length` and a line's bytes are known when it arrives.
///
/// A decoder of its own rather than `PuzzleWeb.Base64` (which reads a
/// 24-character handshake key): an upload is up to 13 MiB of base64, read on
/// the server's loop a line at a time, so this one works in place over the
/// line's bytes through a table, with no allocation but the output's growth.
public enum UploadChunk {
    /// The request word of a data line.
    public static let verb = "DATA"

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// Each byte's 6-bit value, 64 for `=`, 255 for anything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        table[Int(UInt8(ascii: "="))] = 64
        return table
    }()

    /// The most base64 characters a DATA line carries under `maxLineLength`
    /// (`DATA ` and whole quads): what the server's go-ahead (`OK upload ...
    /// line=<n>`) tells a client.
    public static func charactersPerLine(maxLineLength: Int) -> Int {
        max(4, (maxLineLength - verb.utf8.count - 1) / 4 * 4)
    }

    /// The DATA lines (without terminators) that carry `bytes`, each at most
    /// `characters` base64 characters (rounded down to whole quads, at least 4).
    public static func lines(for bytes: [UInt8], charactersPerLine characters: Int) -> [String] {
        let perLine = max(1, characters / 4) * 3
        var lines: [String] = []
        lines.reserveCapacity(bytes.count / perLine + 1)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + perLine)
            lines.append(verb + " " + encode(bytes[start..<end]))
            start = end
        }
        return lines
    }

    /// `bytes` in padded base64.
    public static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let n = bytes.endIndex - i
            let b0 = bytes[i], b1 = n > 1 ? bytes[i + 1] : 0, b2 = n > 2 ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(n > 1 ? alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(b2 & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the bytes `text` encodes to `out`; false (and `out` as it was)
    /// unless `text` is canonical padded base64: a whole number of quads,
    /// only alphabet characters, `=` only at the end of the last quad, unused
    /// bits zero. Empty text is no data.
    public static func decode(_ text: some Collection<UInt8>, into out: inout [UInt8]) -> Bool {
        let mark = out.count
        var result = text.withContiguousStorageIfAvailable { decodeQuads($0, into: &out) }
        if result == nil {
            let copy = Array(text)
            result = copy.withUnsafeBufferPointer { decodeQuads($0, into: &out) }
        }
        let ok = result ?? false
        if !ok { out.removeSubrange(mark...) }
        return ok
    }

    private static func decodeQuads(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        guard !text.isEmpty, text.count % 4 == 0 else { return false }
        // No reserveCapacity here: asked for a little more on every line, an
        // array grows to exactly that each time, copying it all (quadratic);
        // plain appends grow it geometrically.
        return values.withUnsafeBufferPointer { table in
            var i = 0
            while i < text.count {
                let a = table[Int(text[i])], b = table[Int(text[i + 1])], c = table[Int(text[i + 2])], d = table[Int(text[i + 3])]
                guard a < 64, b < 64 else { return false }
                if c < 64 && d < 64 {
                    let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out.append(UInt8(truncatingIfNeeded: n >> 16))
                    out.append(UInt8(truncatingIfNeeded: n >> 8))
                    out.append(UInt8(truncatingIfNeeded: n))
                } else {
                    // Padding: only in the last quad, `x=` or `==`, with the bits it drops zero.
                    guard i + 4 == text.count, d == 64 else { return false }
                    if c == 64 {
                        guard b & 15 == 0 else { return false }
                        out.append(a << 2 | b >> 4)
                    } else {
                        guard c < 64, c & 3 == 0 else { return false }
                        out.append(a << 2 | b >> 4)
                        out.append((b & 15) << 4 | c >> 2)
                    }
                }
                i += 4
            }
            return true
        }
    }
}
