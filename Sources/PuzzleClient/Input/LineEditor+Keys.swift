/// Applying decoded keys.
extension LineEditor {
    /// What a key did to the editor.
    public enum Outcome: Hashable, Sendable {
        /// Enter: the submitted line (the editor is now empty).
        case submitted(String)
        /// The text or cursor may have changed; redraw.
        case edited
        /// The editor does not handle this key (escape, interrupt, tab, page keys...); the
        /// caller decides.
        case ignored
    }

    /// Applies an editing key: characters, Enter, Backspace, Delete, arrows (up/down browse
    /// history), Home/End, and the readline controls Ctrl-A/E/B/F/K/U/W.
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .character(let character): insert(character)
        case .enter: return .submitted(submit())
        case .backspace: backspace()
        case .delete: deleteForward()
        case .left: moveLeft()
        case .right: moveRight()
        case .home: moveHome()
        case .end: moveEnd()
        case .up: historyPrevious()
        case .down: historyNext()
        case .control(0x01): moveHome()
        case .control(0x05): moveEnd()
        case .control(0x02): moveLeft()
        case .control(0x06): moveRight()
        case .control(0x0B): deleteToEnd()
        case .control(0x15): deleteToStart()
        case .control(0x17): deleteWordBackward()
        default: return .ignored
        }
        return .edited
    }
}
