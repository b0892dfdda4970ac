import PuzzleClient
import PuzzleCore

/// The name prompt a telnet player meets before the game: a pure value that takes keys
/// and draws a `Frame`. It reads a player name, or a come-back code (`ComeBackCodes`:
/// `#` and six letters and digits) that brings a player back as themselves.
public struct TelnetLogin: Sendable {
    /// What the player typed, once Enter says it is done.
    public enum Outcome: Hashable, Sendable {
        /// A valid player name.
        case name(String)
        /// A come-back code, as typed (`#` included).
        case code(String)
        /// Ctrl-C or Ctrl-D: the player leaves.
        case quit
    }

    /// The line as typed so far.
    public private(set) var text = ""
    /// Why the last try was refused (a bad name, an unknown code, a refusal from the server).
    public var problem: String?
    /// A line about the terminal (the line-mode hint).
    public var hint: String?
    /// Whether something shown changed since the last `frame`.
    public private(set) var needsDraw = true

    public init(problem: String? = nil) {
        self.problem = problem
    }

    /// Takes one key; an outcome once the line is entered.
    public mutating func handle(_ key: Key) -> Outcome? {
        needsDraw = true
        switch key {
        case .character(let c):
            // Room for a whole name and a code; the rule itself is checked on Enter.
            if text.utf8.count < NameRule.maxLength, c.isASCII, c != " " { text.append(c) }
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .control(0x15):  // Ctrl-U: the whole line
            text = ""
        case .interrupt, .endOfFile:
            return .quit
        case .enter:
            let typed = text.trimmingCharacters(in: " ")
            text = ""
            if typed.isEmpty { return nil }
            if typed.hasPrefix("#") { return .code(typed) }
            guard NameRule.isValid(typed) else {
                problem = "'\(typed)' is not a name: names are \(NameRule.summary)"
                return nil
            }
            return .name(typed)
        default:
            needsDraw = false
        }
        return nil
    }

    /// Notes a change the prompt shows (a hint arrived).
    public mutating func invalidate() { needsDraw = true }

    /// The prompt at `rows` x `columns` (long lines wrapped at spaces).
    public mutating func frame(rows: Int, columns: Int) -> Frame {
        needsDraw = false
        var f = Frame(width: columns, height: rows)
        let bold = Frame.Style(bold: true)
        let width = max(8, columns - 4)
        var row = min(2, max(0, rows - 9))
        _ = f.put("puzzle-room", row: row, column: 2, style: bold)
        row += 2
        let end = f.put("your name: " + text, row: row, column: 2)
        f.cursor = Frame.Position(row: min(row, rows - 1), column: min(end, columns - 1))
        row += 1
        for line in Self.wrap("(a name: \(NameRule.summary); or the come-back code you were shown, like #K7QX2M)", width: width) {
            _ = f.put(line, row: row, column: 2)
            row += 1
        }
        row += 1
        for line in Self.wrap(problem ?? "", width: width) {
            _ = f.put(line, row: row, column: 2, style: Frame.Style(inverse: true))
            row += 1
        }
        for line in Self.wrap(hint ?? "", width: width) {
            _ = f.put(line, row: row, column: 2, style: bold)
            row += 1
        }
        return f
    }

    /// `text` cut into lines of at most `width` characters, at spaces where it can be.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var w = Substring(word)
            while w.count > width {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(w.prefix(width)))
                w = w.dropFirst(width)
            }
            if line.isEmpty { line = String(w) } else if line.count + 1 + w.count <= width { line += " " + w } else {
                lines.append(line)
                line = String(w)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
