/// Showing a line wider than the space for it.
extension LineEditor {
    /// The part of the text to draw in `width` columns, and the column of the cursor in it.
    ///
    /// Columns are display columns (`DisplayWidth`: CJK and emoji take two). The view scrolls
    /// horizontally only as far as needed to keep the cursor visible: while the cursor is within
    /// the first `width - 1` columns the start is shown; further right, the view starts at the
    /// first character that leaves the cursor in the last column or the one before (when a wide
    /// character would otherwise be cut). The slice never ends in half a wide character.
    public func visibleSlice(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        let characters = Array(text)
        let columns = characters.map(DisplayWidth.of)
        let end = min(cursor, characters.count)
        var start = end
        var before = 0  // columns from start to the cursor
        while start > 0 && before + columns[start - 1] <= width - 1 {
            start -= 1
            before += columns[start]
        }
        // At the start of the text there is nothing to scroll past.
        if columns[..<start].reduce(0, +) == 0 { start = 0 }
        let slice = DisplayWidth.prefix(String(characters[start...]), columns: width)
        return (String(slice), before)
    }
}
