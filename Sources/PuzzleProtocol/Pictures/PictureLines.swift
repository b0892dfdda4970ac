import PuzzleCore

/// Writes and reads a picture's state lines, wherever they travel (PROTOCOL.md,
/// *Snapshot* and *Replays*, and `PICTURE`):
///
///     S picture <width> <height>           then one `S px` line a row (version 1 snapshots, REPLAY)
///     S picture <width> <height> <hash>    (compact snapshots: pixels fetched with PICTURE)
///     S px <rrggbb...>                     (one pixel row, top first)
///     S png <base64> / S jpeg <base64>     (the PICTURE reply: the file, `fileLineChars` a line)
///
/// The one writer of these lines for the server's snapshots, replays and
/// pictures, and the one reader for the client's: so the two cannot drift.
public enum PictureLines {
    /// Base64 characters per `S png`/`S jpeg` line (a multiple of 4, so each
    /// line decodes on its own too).
    public static let fileLineChars = 4096

    /// One picture line, read.
    public enum Line: Hashable, Sendable {
        /// `S picture <w> <h> [hash]`: the size, and the content hash of a
        /// compact snapshot (16 lowercase hex digits) when there is one.
        case size(width: Int, height: Int, hash: String?)
        /// `S px <row>`: one row's pixels as hex, read by `Picture(hexRows:)`.
        case row(String)
        /// `S png <base64>` or `S jpeg <base64>`: a piece of the file.
        case file(PictureFormat, String)
    }

    // MARK: - Writing

    /// Appends `S picture <w> <h>` and the picture's `S px` rows.
    public static func encodePixels(_ picture: Picture, into out: inout [UInt8]) {
        encodeSize(width: picture.width, height: picture.height, hash: nil, into: &out)
        for row in picture.hexRows() {
            out.append(ascii: "S px ")
            out.append(text: row)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// Appends `S picture <w> <h>`, with ` <hash>` when given (the compact form).
    public static func encodeSize(width: Int, height: Int, hash: String?, into out: inout [UInt8]) {
        out.append(ascii: "S picture ")
        out.append(decimal: width)
        out.append(UInt8(ascii: " "))
        out.append(decimal: height)
        if let hash {
            out.append(UInt8(ascii: " "))
            out.append(text: hash)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// Appends a picture file's base64 text as `S png` or `S jpeg` lines of
    /// `lineChars` characters (the last one shorter).
    public static func encodeFile(base64 text: some Collection<UInt8>, format: PictureFormat, lineChars: Int = fileLineChars,
                                  into out: inout [UInt8]) {
        precondition(lineChars > 0 && lineChars % 4 == 0, "a file line carries whole base64 quads")
        out.reserveCapacity(out.count + text.count + (text.count / lineChars + 1) * 7)
        var i = text.startIndex
        while i != text.endIndex {
            let end = text.index(i, offsetBy: lineChars, limitedBy: text.endIndex) ?? text.endIndex
            out.append(ascii: "S ")
            out.append(text: format.rawValue)
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: text[i..<end])
            out.append(UInt8(ascii: "\n"))
            i = end
        }
    }

    // MARK: - Reading

    /// Reads one picture line (without its terminator; its `S ` may be left
    /// off, as a snapshot file's lines are read). Nil when it is not one of
    /// these lines or does not read as one: numbers as `LineScanner` reads them
    /// (no `+`), exactly the words the line has.
    public static func decode(_ line: Substring) -> Line? {
        var line = line
        return line.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Reads one picture line from its bytes (see `decode(_:)` for a `Substring`).
    public static func decode(_ line: UnsafeRawBufferPointer) -> Line? {
        guard !line.isEmpty else { return nil }
        var s = LineScanner(line)
        var kind = s.word()
        if s.matches(kind, "S") { kind = s.word() }
        /// The last word of the line, as text.
        func last() -> String? {
            let w = s.word()
            guard !w.isEmpty, s.atLineEnd() else { return nil }
            return s.text(w)
        }
        if s.matches(kind, "picture") {
            guard let width = s.int(), let height = s.int() else { return nil }
            if s.atLineEnd() { return .size(width: width, height: height, hash: nil) }
            guard let hash = last(), isHash(hash) else { return nil }
            return .size(width: width, height: height, hash: hash)
        }
        if s.matches(kind, "px") { return last().map(Line.row) }
        for format in PictureFormat.allCases where s.text(kind) == format.rawValue {
            return last().map { .file(format, $0) }
        }
        return nil
    }

    /// Whether `text` is a picture's content hash as the wire writes it
    /// (`Picture.contentHashHex`: 16 lowercase hex digits).
    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
