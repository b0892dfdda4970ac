/// Showing a line wider than the space for it.
extension LineEditor {
    /// The part of the text to draw in `width` columns, and the column of the cursor in it.
    ///
    /// The view scrolls horizontally only as far as needed to keep the cursor visible: while the
    /// cursor is within the first `width - 1` characters the start is shown; further right, the
    /// cursor sits in the last column (which is blank when it is at the end of the text). One
    /// column per `Character` is assumed (no double-width handling).
    public func visibleSlice(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        let start = max(0, cursor - (width - 1))
        let slice = text.dropFirst(start).prefix(width)
        return (String(slice), cursor - start)
    }
}
