import PuzzleCore
import PuzzleProtocol

/// The message pane's history: what a player needs to read, not every move.
///
/// Others' grabs, drags, turns, releases and expiries show on the table and are not logged,
/// nor are one's own (the held piece shows them); what stays is chat, joins and leaves, a drop
/// that completes a row or column, solves and new puzzles, errors, notes, and one's own
/// outcomes that need reading (a piece that went back by itself). Lines are chosen by what
/// they are about (`OutputLine.Subject`, the kind), never by their text. A line that repeats
/// the one before is folded into it and shown once with "(xN)". A chat-only view hides
/// everything but chat.
public struct MessageLog: Sendable {
    /// One logged line and how many times in a row it came.
    public struct Entry: Hashable, Sendable {
        public var line: OutputLine
        public var count: Int
    }

    /// Oldest first, at most `limit`.
    public private(set) var entries: [Entry] = []
    /// Wrapped lines the pane is scrolled back from the newest (0: the newest are shown).
    public private(set) var scroll = 0
    /// Whether only chat is shown.
    public private(set) var chatOnly = false
    /// The most entries kept; the oldest go first.
    public let limit: Int

    public init(limit: Int = 500) {
        self.limit = max(1, limit)
    }

    /// Whether `line` belongs in the log of player `me`.
    public static func keeps(_ line: OutputLine, me: PlayerID?) -> Bool {
        // The client's own reloads are no news to a player (after a `next` with
        // a new picture it read like an error).
        if line.about == .resync { return false }
        switch line.kind {
        case .drag: return false
        case .chat, .error, .info: return true
        case .reply, .event: break
        }
        switch line.about {
        case .event(let body, let completes)?:
            switch body {
            case .joined, .left, .solved, .nextPuzzle, .hint: return true
            case .grabbed, .dragged, .rotated, .forgotten, .merged: return false
            case .placed(_, _, .table, _): return false
            case .placed, .swapped: return completes
            case .returned(_, let by, let reason):
                switch reason {
                case .released, .left: return false
                // A piece of one's own that went back by itself needs saying; others' show.
                case .expired, .noTarget: return by == me
                }
            }
        case .reply(let request)?:
            // Replies whose news the room's events tell (or the table shows).
            switch request {
            case .grab, .drag, .rotate, .drop, .release, .say, .hint, .next: return false
            default: return true
            }
        case .chat?, .resync?, .listing?, nil:
            return true
        }
    }

    /// Whether chat `words` mention `name`: the name as a word of its own, any case
    /// ("bob:", "@bob", "Bob?" do; "bobby" does not).
    public static func mentions(_ words: String, name: String) -> Bool {
        guard !name.isEmpty else { return false }
        let text = Array(words.lowercased()), wanted = Array(name.lowercased())
        guard text.count >= wanted.count else { return false }
        func isNameCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" }
        for start in 0...(text.count - wanted.count) where Array(text[start..<(start + wanted.count)]) == wanted {
            let before = start == 0 || !isNameCharacter(text[start - 1])
            let end = start + wanted.count
            let after = end == text.count || !isNameCharacter(text[end])
            if before && after { return true }
        }
        return false
    }

    /// Whether `line` is someone else's chat that mentions `name`.
    public static func mentions(_ line: OutputLine, name: String, me: PlayerID?) -> Bool {
        guard case .chat(let from, let words)? = line.about, from != me else { return false }
        return mentions(words, name: name)
    }

    /// Logs `line` if it belongs (see `keeps`), folding a repeat of the newest entry. A pane
    /// scrolled back stays on what it shows (`width`: the pane's columns).
    public mutating func add(_ line: OutputLine, me: PlayerID?, width: Int) {
        guard Self.keeps(line, me: me) else { return }
        if var last = entries.last, last.line.kind == line.kind, last.line.text == line.text {
            last.count += 1
            entries[entries.count - 1] = last
            return  // the same wrapped lines (the count may add one when it wraps anew)
        }
        entries.append(Entry(line: line, count: 1))
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        if scroll > 0 && (!chatOnly || line.kind == .chat) { scroll += MessageWrap.wrap(line.text, width: width).count }
    }

    /// The lines the pane shows, oldest first: repeats as one line with "(xN)", and only
    /// chat in the chat-only view.
    public var shownLines: [OutputLine] {
        entries.compactMap { entry in
            guard !chatOnly || entry.line.kind == .chat else { return nil }
            var line = entry.line
            if entry.count > 1 { line.text += " (x\(entry.count))" }
            return line
        }
    }

    /// Scrolls back (positive) or forward by `lines` wrapped lines, within the history, for a
    /// pane `width` columns wide showing `shown` lines.
    public mutating func scroll(by lines: Int, width: Int, shown: Int) {
        let total = MessageWrap.lastLines(of: shownLines, width: width, count: Int.max / 2).count
        scroll = min(max(0, scroll + lines), max(0, total - shown))
    }

    /// Switches the chat-only view on or off (nil: toggles), showing the newest lines.
    public mutating func setChatOnly(_ on: Bool?) {
        chatOnly = on ?? !chatOnly
        scroll = 0
    }
}
