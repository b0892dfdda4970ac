/// Reads words and numbers from one server line in place, without building
/// strings: the byte-level reader of lines for a client that reads millions of
/// event lines a second (the load test's bots). Inlinable, so that a reader
/// in another module costs what it did inside it; valid only while the
/// line's bytes are.
@frozen
public struct LineScanner {
    /// The line's first byte, and its length (without terminator).
    public let base: UnsafePointer<UInt8>
    public let end: Int
    /// Where the next word is looked for.
    public var position = 0

    @inlinable
    public init(_ line: UnsafeRawBufferPointer) {
        base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        end = line.count
    }

    @inlinable
    public var atEnd: Bool { position >= end }

    @inlinable @inline(__always)
    public mutating func skipSpaces() {
        while position < end && base[position] == 0x20 { position += 1 }
    }

    /// The next space-separated word as a range of the line.
    @inlinable @inline(__always)
    public mutating func word() -> Range<Int> {
        skipSpaces()
        let start = position
        while position < end && base[position] != 0x20 { position += 1 }
        return start..<position
    }

    /// Whether the next word ends here (at a space or the line's end).
    @inlinable @inline(__always)
    public var atWordEnd: Bool { position >= end || base[position] == 0x20 }

    /// Whether nothing but spaces is left: the line had no more words.
    @inlinable @inline(__always)
    public mutating func atLineEnd() -> Bool {
        skipSpaces()
        return atEnd
    }

    /// Digits from `position` up to the first byte that is not one, as a
    /// number; nil when there is none or the number does not fit 64 bits.
    ///
    /// Nineteen digits always fit 64 bits, so a run that short (every number
    /// a server writes) is summed without overflow checks; only a longer run
    /// is summed again with them (checking every digit cost the load test's
    /// bots about 10% of their time).
    @inlinable @inline(__always)
    mutating func digits() -> UInt64? {
        let start = position
        var value: UInt64 = 0
        while position < end {
            let d = base[position] &- 0x30
            if d > 9 { break }
            value = value &* 10 &+ UInt64(d)
            position += 1
        }
        let count = position - start
        if count < 20 { return count > 0 ? value : nil }
        return LineScanner.checkedDigits(base + start, count)
    }

    /// `count` digits at `start` as a number, or nil when it does not fit 64
    /// bits: the rare long run (leading zeros, or an overflow to refuse).
    @usableFromInline
    static func checkedDigits(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64? {
        var value: UInt64 = 0
        for i in 0..<count {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(start[i] &- 0x30))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }

    /// The next word as an unsigned decimal (digits only), or nil when it is
    /// not one or does not fit 64 bits.
    @inlinable @inline(__always)
    public mutating func uint() -> UInt64? {
        skipSpaces()
        guard let value = digits(), atWordEnd else { return nil }
        return value
    }

    /// The next word as a signed decimal as the protocol writes numbers (an
    /// optional `-`, then digits: no `+`), or nil when it is not one or does
    /// not fit an `Int`.
    ///
    /// Every event a load-test bot reads is four or five of these, so up to
    /// eighteen digits (always within an `Int`) are summed as an `Int` with
    /// no checks; a longer run goes through the checked `digits()` again.
    @inlinable @inline(__always)
    public mutating func int() -> Int? {
        skipSpaces()
        var negative = false
        if position < end && base[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let start = position
        var value = 0
        while position < end {
            let d = base[position] &- 0x30
            if d > 9 { break }
            value = value &* 10 &+ Int(d)
            position += 1
        }
        guard position > start, atWordEnd else { return nil }
        if position - start < 19 { return negative ? 0 &- value : value }
        position = start
        guard let magnitude = digits() else { return nil }
        if negative {
            // Down to Int.min, whose magnitude is one more than Int.max.
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// The next word as two unsigned decimals joined by `separator` (a cell's
    /// `r,c`, a size's `RxC`), or nil when it is not that.
    @inlinable
    public mutating func pair(_ separator: UInt8) -> (Int, Int)? {
        skipSpaces()
        guard let a = digits(), a <= UInt64(Int.max), position < end, base[position] == separator else { return nil }
        position += 1
        guard let b = digits(), b <= UInt64(Int.max), atWordEnd else { return nil }
        return (Int(a), Int(b))
    }

    /// The next word as a drop target: `r,c` (a cell) or `-` (none).
    @inlinable
    public mutating func target() -> (valid: Bool, row: Int, col: Int)? {
        skipSpaces()
        guard position < end else { return nil }
        if base[position] == UInt8(ascii: "-") {
            position += 1
            return atWordEnd ? (false, 0, 0) : nil
        }
        guard let (row, col) = pair(UInt8(ascii: ",")) else { return nil }
        return (true, row, col)
    }

    /// How many words lie from `start` to the line's end (`position` stays).
    public func wordCount(from start: Int) -> Int {
        var t = self
        t.position = start
        var n = 0
        while !t.word().isEmpty { n += 1 }
        return n
    }

    /// The value of the first `key=value` word from `start` on, as a range of
    /// the line (`position` stays); nil when there is none, or its value is empty.
    public func field(_ key: StaticString, from start: Int) -> Range<Int>? {
        var t = self
        t.position = start
        let k = key.utf8CodeUnitCount
        while true {
            let w = t.word()
            if w.isEmpty { return nil }
            if w.count > k + 1, base[w.lowerBound + k] == UInt8(ascii: "="), matches(w.lowerBound..<w.lowerBound + k, key) {
                return w.lowerBound + k + 1..<w.upperBound
            }
        }
    }

    /// `range` (one word, or part of one) as `int()` reads a word; nil when
    /// it is not exactly such a number.
    public func int(in range: Range<Int>) -> Int? {
        reading(range) { $0.int() }
    }

    /// `range` as `uint()` reads a word; nil when it is not exactly such a number.
    public func uint(in range: Range<Int>) -> UInt64? {
        reading(range) { $0.uint() }
    }

    /// What `read` makes of `range` alone (`position` stays): nil unless it
    /// reads all of the range and no further.
    func reading<T>(_ range: Range<Int>, _ read: (inout LineScanner) -> T?) -> T? {
        // An empty range would let `read` skip on to the next word.
        guard !range.isEmpty else { return nil }
        var t = self
        t.position = range.lowerBound
        guard let value = read(&t), t.position == range.upperBound else { return nil }
        return value
    }

    /// Where `byte` first occurs in `range`, if it does.
    public func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        range.first { base[$0] == byte }
    }

    /// `range` of the line as text (invalid UTF-8 repaired, as a client reads
    /// lines into strings).
    @inlinable
    public func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// Whether `range` of the line spells `text`.
    @inlinable @inline(__always)
    public func matches(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let t = text.utf8Start
        for i in 0..<range.count where base[range.lowerBound + i] != t[i] { return false }
        return true
    }

    /// Whether the line ends with `text`.
    @inlinable
    public func hasSuffix(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard n <= end else { return false }
        return matches(end - n..<end, text)
    }

    /// The whole line's bytes.
    @inlinable
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: end) }

    /// The whole line as a string (for the rare lines parsed the slow way).
    @inlinable
    public var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: end), as: UTF8.self)
    }
}

extension LineScanner {
    /// `text` (one word, or part of one: `12` of `12x8`) as `int()` reads a
    /// word: an optional `-` and digits, no `+`, nothing else, within an
    /// `Int`. The one number reader for decoders that hold words as strings.
    public static func int(_ text: Substring) -> Int? {
        reading(text) { $0.int() }
    }

    /// `text` as `uint()` reads a word: digits only, within 64 bits.
    public static func uint(_ text: Substring) -> UInt64? {
        reading(text) { $0.uint() }
    }

    /// What `read` makes of all of `text` (nil for an empty text, or one with
    /// a space: `read` would skip it).
    static func reading<T>(_ text: Substring, _ read: (inout LineScanner) -> T?) -> T? {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty, !bytes.contains(0x20) else { return nil }
            let line = LineScanner(UnsafeRawBufferPointer(bytes))
            return line.reading(0..<line.end, read)
        }
    }
}
