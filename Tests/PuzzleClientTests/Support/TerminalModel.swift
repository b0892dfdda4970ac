@testable import PuzzleClient

/// A small model of a terminal, enough to read back what the client's output shows: cursor
/// moves (CUP, CUU/CUD/CUF/CUB, CR, LF, BS), erasing (ED, EL), printable text laid out by
/// display width as a Unicode-aware terminal does (wide characters take two columns, marks and
/// joiners join the character before), autowrap with the pending-wrap column, and overwriting
/// half of a wide character blanking the other half. Attributes (SGR) and modes are read and
/// ignored: the model holds characters only.
struct TerminalModel {
    let width: Int
    let height: Int
    /// Per cell the characters drawn there; nil for the right half of a wide character.
    private(set) var cells: [String?]
    private(set) var row = 0
    private(set) var column = 0
    /// After printing in the last column: the next character goes to the next row.
    private var pendingWrap = false
    /// How wide a character is; a terminal with another Unicode table would differ.
    let widthOf: (Character) -> Int

    init(width: Int, height: Int, widthOf: @escaping (Character) -> Int = DisplayWidth.of) {
        self.width = width
        self.height = height
        self.widthOf = widthOf
        cells = Array(repeating: " ", count: width * height)
    }

    /// The screen's rows as text (a wide character once, for its two columns).
    var rows: [String] {
        (0..<height).map { r in (0..<width).compactMap { cells[r * width + $0] }.joined() }
    }

    /// Where the cursor is.
    var cursor: Frame.Position { Frame.Position(row: row, column: column) }

    /// Interprets `bytes` (UTF-8 text and escape sequences).
    mutating func feed(_ bytes: [UInt8]) {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var text = String.UnicodeScalarView()
        var i = 0
        func flush() {
            for character in String(text) { put(character) }
            text = String.UnicodeScalarView()
        }
        while i < scalars.count {
            let s = scalars[i]
            if s == "\u{1B}" {
                flush()
                i = escape(scalars, from: i + 1)
                continue
            }
            if s.value < 0x20 || s.value == 0x7F {
                flush()
                control(s)
            } else {
                text.append(s)
            }
            i += 1
        }
        flush()
    }

    private mutating func control(_ s: Unicode.Scalar) {
        switch s {
        case "\r": column = 0; pendingWrap = false
        case "\n": row = min(height - 1, row + 1); pendingWrap = false
        case "\u{08}": column = max(0, column - 1); pendingWrap = false
        default: break
        }
    }

    /// Reads the sequence after an ESC; returns the index after it.
    private mutating func escape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start < scalars.count else { return start }
        guard scalars[start] == "[" else { return start + 1 }  // ESC 7, ESC =, ...: nothing on screen
        var i = start + 1
        var parameters = ""
        while i < scalars.count, !(0x40...0x7E).contains(scalars[i].value) {
            parameters.unicodeScalars.append(scalars[i])
            i += 1
        }
        guard i < scalars.count else { return i }
        let final = scalars[i]
        let private_ = parameters.hasPrefix("?")
        let numbers = parameters.drop { $0 == "?" }.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func n(_ k: Int, _ fallback: Int) -> Int { k < numbers.count ? (numbers[k] ?? fallback) : fallback }
        if !private_ {
            switch final {
            case "H", "f": row = min(height - 1, max(0, n(0, 1) - 1)); column = min(width - 1, max(0, n(1, 1) - 1)); pendingWrap = false
            case "A": row = max(0, row - max(1, n(0, 1))); pendingWrap = false
            case "B": row = min(height - 1, row + max(1, n(0, 1))); pendingWrap = false
            case "C": column = min(width - 1, column + max(1, n(0, 1))); pendingWrap = false
            case "D": column = max(0, column - max(1, n(0, 1))); pendingWrap = false
            case "J":
                switch n(0, 0) {
                case 2, 3: erase(from: 0, to: width * height)
                case 1: erase(from: 0, to: row * width + column + 1)
                default: erase(from: row * width + column, to: width * height)
                }
            case "K":
                switch n(0, 0) {
                case 2: erase(from: row * width, to: (row + 1) * width)
                case 1: erase(from: row * width, to: row * width + column + 1)
                default: erase(from: row * width + column, to: (row + 1) * width)
                }
            default: break  // SGR and the rest draw nothing
            }
        }
        return i + 1
    }

    private mutating func erase(from start: Int, to end: Int) {
        guard start < end else { return }
        // A wide character cut by the erased range goes whole.
        if cells[start] == nil, start > 0 { cells[start - 1] = " " }
        if end < cells.count, cells[end] == nil { cells[end] = " " }
        for k in start..<end { cells[k] = " " }
    }

    private mutating func put(_ character: Character) {
        let w = widthOf(character)
        if w == 0 {
            // Joins what is left of the cursor, as terminals add marks to the previous cell.
            var k = row * width + (pendingWrap ? column : max(0, column - 1))
            while k > 0 && cells[k] == nil { k -= 1 }
            cells[k] = (cells[k] ?? "") + String(character)
            return
        }
        if pendingWrap || column + w > width {
            // Autowrap (a wide character that does not fit in the last column wraps whole).
            if column + w > width && !pendingWrap { cells[row * width + column] = " " }
            column = 0
            row = min(height - 1, row + 1)
            pendingWrap = false
        }
        let index = row * width + column
        unlink(index)
        cells[index] = String(character)
        if w == 2 {
            unlink(index + 1)
            cells[index + 1] = nil
        }
        if column + w >= width {
            column = width - 1
            pendingWrap = true
        } else {
            column += w
        }
    }

    /// Blanks the other half of a wide character before one of its halves is overwritten.
    private mutating func unlink(_ index: Int) {
        let c = index % width
        if cells[index] == nil {
            if c > 0 { cells[index - 1] = " " }
        } else if c + 1 < width, cells[index + 1] == nil {
            cells[index + 1] = " "
        }
    }
}
