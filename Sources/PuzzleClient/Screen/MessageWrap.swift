/// Breaks message lines to the screen's width for the message pane.
enum MessageWrap {
    /// The last `count` screen lines of `messages` wrapped to `width` columns
    /// (at spaces where a word fits, else mid-word), oldest first. Wraps only
    /// as many messages, newest first, as it takes to fill `count`.
    static func lastLines(of messages: [OutputLine], width: Int, count: Int) -> [OutputLine] {
        guard width > 0, count > 0 else { return [] }
        var lines: [OutputLine] = []
        for message in messages.reversed() {
            let pieces = wrap(message.text, width: width)
            // Each piece keeps what its line is about (a mention is highlighted whole).
            lines.insert(contentsOf: pieces.map { var piece = message; piece.text = $0; return piece }, at: 0)
            if lines.count >= count { break }
        }
        return Array(lines.suffix(count))
    }

    /// One text broken into lines of at most `width` columns (`DisplayWidth`: a
    /// wide character takes two, and never straddles the end of a line); continuation
    /// lines are indented (by two spaces unless told) so a reader sees where a
    /// message starts.
    static func wrap(_ text: String, width: Int, indent continuation: Int = 2) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        var first = true
        let hanging = min(continuation, width / 2)
        while true {
            let room = first || width <= 4 ? width : width - hanging
            let indent = first || width <= 4 ? "" : String(repeating: " ", count: hanging)
            if DisplayWidth.of(rest) <= room {
                out.append(indent + rest)
                return out
            }
            let cut = DisplayWidth.prefix(rest, columns: room).endIndex
            // Break at the last space that leaves something on this line.
            var end = cut
            if cut == rest.startIndex {
                // A wide character in a one-column room: it goes alone (the frame shows a space).
                end = rest.index(after: cut)
            } else if let space = rest[..<cut].lastIndex(of: " "), space > rest.startIndex { end = space }
            out.append(indent + rest[..<end])
            rest = rest[end...].drop { $0 == " " }
            first = false
            if rest.isEmpty { return out }
        }
    }

    /// Where a list line's continuation should start: after a short label
    /// ("mouse: press ..."), else under its second column (after the first run
    /// of two or more spaces, as in "/grab N    take piece N"), else two past
    /// its own indentation.
    /// In columns, as the line is shown.
    static func hangingIndent(of line: String) -> Int {
        let leading = line.prefix { $0 == " " }.count
        let chars = Array(line)
        if let colon = line.range(of: ": ")?.upperBound, DisplayWidth.of(line[..<colon]) <= 12,
           !line[..<colon].contains("  ") {
            return DisplayWidth.of(line[..<colon])
        }
        var i = leading
        while i + 1 < chars.count {
            if chars[i] == " " && chars[i + 1] == " " {
                var j = i
                while j < chars.count && chars[j] == " " { j += 1 }
                return DisplayWidth.of(String(chars[..<j]))
            }
            i += 1
        }
        return leading + 2
    }
}
