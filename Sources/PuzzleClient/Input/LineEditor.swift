/// A single-line text editor for the command prompt: the text, a cursor counted in
/// `Character`s, editing commands, and a bounded history. Pure value; the client feeds it keys
/// and draws `visibleSlice(width:)`.
public struct LineEditor: Hashable, Sendable {
    /// The line being edited.
    public internal(set) var text: String = ""
    /// Cursor position in `Character`s from the start of `text` (0...text.count).
    public internal(set) var cursor: Int = 0
    /// Submitted lines, oldest first, without consecutive duplicates.
    public internal(set) var history: [String] = []
    /// The most lines `history` keeps; the oldest are dropped first.
    public let historyLimit: Int

    /// Which history entry is shown, or nil while editing the draft.
    var historyIndex: Int?
    /// The line being typed before the user went up into history.
    var draft: String = ""

    /// Creates an empty editor keeping at most `historyLimit` history lines.
    public init(historyLimit: Int = 100) {
        self.historyLimit = max(0, historyLimit)
    }

    /// Replaces the text and puts the cursor at its end (leaves history browsing).
    public mutating func setText(_ newText: String) {
        text = newText
        cursor = newText.count
        historyIndex = nil
    }

    /// Inserts `character` at the cursor and moves past it. A combining character joins the
    /// one before it, so the cursor is recomputed from the text rather than just incremented.
    public mutating func insert(_ character: Character) {
        insert(contentsOf: String(character))
    }

    /// Inserts `string` at the cursor and moves past it.
    public mutating func insert(contentsOf string: String) {
        guard !string.isEmpty else { return }
        let split = index(at: cursor)
        let before = String(text[..<split]) + string
        text = before + text[split...]
        cursor = min(before.count, text.count)
    }

    /// Moves the cursor one character left, if possible.
    public mutating func moveLeft() {
        cursor = max(0, cursor - 1)
    }

    /// Moves the cursor one character right, if possible.
    public mutating func moveRight() {
        cursor = min(text.count, cursor + 1)
    }

    /// Moves the cursor to the start of the line.
    public mutating func moveHome() {
        cursor = 0
    }

    /// Moves the cursor to the end of the line.
    public mutating func moveEnd() {
        cursor = text.count
    }

    /// Deletes the character before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        text.remove(at: index(at: cursor - 1))
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: index(at: cursor))
    }

    /// Deletes from the start of the line to the cursor (Ctrl-U).
    public mutating func deleteToStart() {
        text.removeSubrange(text.startIndex..<index(at: cursor))
        cursor = 0
    }

    /// Deletes from the cursor to the end of the line (Ctrl-K).
    public mutating func deleteToEnd() {
        text.removeSubrange(index(at: cursor)...)
    }

    /// Deletes the word before the cursor, and the spaces between it and the cursor (Ctrl-W).
    public mutating func deleteWordBackward() {
        let characters = Array(text)
        var start = cursor
        while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
        text.removeSubrange(index(at: start)..<index(at: cursor))
        cursor = start
    }

    /// Returns the line, records it in history (unless empty or equal to the newest entry),
    /// and clears the editor for the next line.
    public mutating func submit() -> String {
        let line = text
        if !line.isEmpty && history.last != line && historyLimit > 0 {
            history.append(line)
            if history.count > historyLimit {
                history.removeFirst(history.count - historyLimit)
            }
        }
        text = ""
        cursor = 0
        historyIndex = nil
        draft = ""
        return line
    }

    /// The `String.Index` of the character at `offset` (clamped to the text).
    func index(at offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: min(max(0, offset), text.count))
    }
}
