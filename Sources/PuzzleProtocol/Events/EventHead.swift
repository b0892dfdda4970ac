/// The start of an event line, read from its bytes without decoding the
/// rest: `EV <seq> <kind> <first> <second> ...`. What a client that reads
/// many events needs to decide, before decoding, whether to decode one at
/// all (a drag a later one overrides, an event of a room followed by
/// snapshots): no allocation, no `String`.
public struct EventHead: Equatable, Sendable {
    /// The kind word.
    public enum Kind: Equatable, Sendable {
        case joined, left, grabbed, dragged, rotated, placed, swapped, merged, released, expired, returned
        case solved, next, hint, forgotten, say, watching, unwatching
        /// A word this reader does not know.
        case other
    }

    public var seq: UInt64
    public var kind: Kind
    /// The number after the kind word: the piece of a piece's event, the
    /// player of `joined`, `left`, `hint`, `say`...; nil when it is not one.
    public var first: Int?
    /// The number after that: the player of `grabbed`, `dragged`,
    /// `rotated`, `placed`, `released`, `expired`, `returned`; the other
    /// piece of `swapped` and `merged`; nil when it is not one.
    public var second: Int?

    public init(seq: UInt64, kind: Kind, first: Int?, second: Int?) {
        self.seq = seq
        self.kind = kind
        self.first = first
        self.second = second
    }

    /// Whether the event advances the room's sequence number (all but
    /// `dragged`, `say`, `watching` and `unwatching`: PROTOCOL.md, *Sequence numbers*).
    public var isSequenced: Bool {
        switch kind {
        case .dragged, .say, .watching, .unwatching: return false
        default: return true
        }
    }

    /// The head of `line` (without its LF); nil when it does not start
    /// `EV <digits> <word>`. Numbers longer than 9 digits are not read (nil).
    public static func read(_ line: UnsafeRawBufferPointer) -> EventHead? {
        let n = line.count
        guard n > 5, line[0] == UInt8(ascii: "E"), line[1] == UInt8(ascii: "V"), line[2] == space else { return nil }
        var i = 3
        var seq: UInt64 = 0
        var digits = 0
        while i < n, isDigit(line[i]), digits < 20 {
            seq = seq &* 10 &+ UInt64(line[i] &- zero)
            digits += 1
            i += 1
        }
        guard digits > 0, i < n, line[i] == space else { return nil }
        i += 1
        let wordStart = i
        while i < n, line[i] != space { i += 1 }
        guard i > wordStart else { return nil }
        let kind = Self.kind(UnsafeRawBufferPointer(rebasing: line[wordStart..<i]))
        let first = number(line, &i)
        let second = first == nil ? nil : number(line, &i)
        return EventHead(seq: seq, kind: kind, first: first, second: second)
    }

    /// The number in the word after `i` (a space, then digits up to a space
    /// or the end), moving `i` past it; nil when that word is not one.
    private static func number(_ line: UnsafeRawBufferPointer, _ i: inout Int) -> Int? {
        let n = line.count
        guard i < n, line[i] == space else { return nil }
        var j = i + 1
        var value = 0
        var digits = 0
        while j < n, line[j] != space {
            guard isDigit(line[j]), digits < 9 else { return nil }
            value = value * 10 + Int(line[j] - zero)
            digits += 1
            j += 1
        }
        guard digits > 0 else { return nil }
        i = j
        return value
    }

    private static func kind(_ word: UnsafeRawBufferPointer) -> Kind {
        // By length, then the bytes: no String is made.
        func isWord(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == word.count && UnsafeRawBufferPointer(start: s.utf8Start, count: word.count).elementsEqual(word)
        }
        switch word.count {
        case 3: return isWord("say") ? .say : .other
        case 4: return isWord("left") ? .left : isWord("next") ? .next : isWord("hint") ? .hint : .other
        case 6:
            return isWord("joined") ? .joined : isWord("placed") ? .placed : isWord("merged") ? .merged
                : isWord("solved") ? .solved : .other
        case 7:
            return isWord("grabbed") ? .grabbed : isWord("dragged") ? .dragged : isWord("rotated") ? .rotated
                : isWord("swapped") ? .swapped : isWord("expired") ? .expired : .other
        case 8: return isWord("released") ? .released : isWord("returned") ? .returned : isWord("watching") ? .watching : .other
        case 9: return isWord("forgotten") ? .forgotten : .other
        case 10: return isWord("unwatching") ? .unwatching : .other
        default: return .other
        }
    }

    private static let space = UInt8(ascii: " ")
    private static let zero = UInt8(ascii: "0")

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= zero && byte <= UInt8(ascii: "9")
    }
}
