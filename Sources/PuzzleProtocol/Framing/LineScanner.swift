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

    /// The next word as a signed decimal, or nil when it is not one.
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
        guard position > start, position == end || base[position] == 0x20 else { return nil }
        return negative ? -value : value
    }

    /// The next word as a drop target: `r,c` (a cell) or `-` (none).
    @inlinable
    public mutating func target() -> (valid: Bool, row: Int, col: Int)? {
        skipSpaces()
        guard position < end else { return nil }
        if base[position] == UInt8(ascii: "-") {
            position += 1
            return (false, 0, 0)
        }
        var row = 0, col = 0, seenComma = false, digits = 0
        while position < end && base[position] != 0x20 {
            let b = base[position]
            if b == UInt8(ascii: ",") {
                guard !seenComma, digits > 0 else { return nil }
                seenComma = true
                digits = 0
            } else {
                let d = b &- 0x30
                guard d <= 9 else { return nil }
                if seenComma { col = col * 10 + Int(d) } else { row = row * 10 + Int(d) }
                digits += 1
            }
            position += 1
        }
        guard seenComma, digits > 0 else { return nil }
        return (true, row, col)
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

    /// The whole line as a string (for the rare lines parsed the slow way).
    @inlinable
    public var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: end), as: UTF8.self)
    }
}
