extension Transcript {
    /// Whether a received line matches an expected line of a transcript.
    ///
    /// Words are separated by single spaces and compared exactly (so spacing
    /// inside chat text counts), except that a pattern word `*` matches any one
    /// non-empty word, and a last pattern word `...` matches the rest of the line,
    /// even nothing.
    static func matches(_ pattern: String, _ line: String) -> Bool {
        let want = pattern.split(separator: " ", omittingEmptySubsequences: false)
        let got = line.split(separator: " ", omittingEmptySubsequences: false)
        var g = got[...]
        for (index, word) in want.enumerated() {
            if word == "..." && index == want.count - 1 { return true }
            guard let actual = g.popFirst() else { return false }
            if word == "*" {
                if actual.isEmpty { return false }
            } else if word != actual {
                return false
            }
        }
        return g.isEmpty
    }
}
