/// Browsing submitted lines with up/down.
extension LineEditor {
    /// Shows the previous (older) history entry. The draft being typed is kept and comes back
    /// when moving down past the newest entry.
    public mutating func historyPrevious() {
        guard !history.isEmpty else { return }
        let target: Int
        if let current = historyIndex {
            guard current > 0 else { return }
            target = current - 1
        } else {
            draft = text
            target = history.count - 1
        }
        show(history: target)
    }

    /// Shows the next (newer) history entry, or the draft after the newest.
    public mutating func historyNext() {
        guard let current = historyIndex else { return }
        if current + 1 < history.count {
            show(history: current + 1)
        } else {
            historyIndex = nil
            text = draft
            cursor = text.count
        }
    }

    /// Whether an entry of `history` is shown rather than the draft.
    var isBrowsingHistory: Bool {
        historyIndex != nil
    }

    private mutating func show(history target: Int) {
        historyIndex = target
        text = history[target]
        cursor = text.count
    }
}
