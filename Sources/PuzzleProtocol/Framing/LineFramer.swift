/// Splits a byte stream into LF-terminated lines, with a length limit: the
/// one framer, for the server's connections, the client's link and the
/// load test's bots.
///
/// Two ways in. `append` then `next()` until nil (ByteToMessageDecoder
/// style, the server's): lines come out of the framer's own buffer. Or
/// `split(_:_:)` over the bytes of one read where they lie (the client's and
/// the bots'): each whole line is handed on in place, and only a line cut
/// between reads is copied, into the buffer, until its end comes. Either way
/// the framer remembers how far it has scanned for LF, so bytes are examined
/// once no matter how they arrive, and it drops an over-long line as soon as
/// it is detected, so it holds at most about `maxLineLength` bytes plus
/// whatever one `append` brought.
///
/// A trailing CR before the LF is stripped (CRLF clients work). When a line
/// exceeds `maxLineLength` bytes (excluding its terminator) the framer emits
/// `.overlong` once, silently discards the rest of that line up to its LF,
/// and resumes framing after it.
public struct LineFramer: Sendable {
    /// One result of `next()`.
    public enum Frame: Hashable, Sendable {
        /// A complete line without LF or trailing CR: a slice of the framer's
        /// own buffer, not a copy. Use it before the next `append` (which
        /// may compact the buffer: a slice still held then costs a copy of it).
        case line(ArraySlice<UInt8>)
        /// A line longer than `maxLineLength` was dropped. The payload is its
        /// length as far as the framer had seen it when giving up: the exact
        /// length if its LF was already buffered, otherwise the bytes buffered
        /// so far. Always greater than `maxLineLength`.
        case overlong(Int)
    }

    /// Longest accepted line, excluding the terminator.
    public let maxLineLength: Int

    @usableFromInline var buffer: [UInt8] = []
    /// Start of the first line not yet returned.
    @usableFromInline var lineStart = 0
    /// Bytes in `lineStart..<scanned` are known to contain no LF.
    @usableFromInline var scanned = 0
    /// Inside an over-long line already reported: drop bytes up to the next LF.
    @usableFromInline var discarding = false

    @usableFromInline static let lf = UInt8(ascii: "\n")
    @usableFromInline static let cr = UInt8(ascii: "\r")

    @inlinable
    public init(maxLineLength: Int) {
        precondition(maxLineLength >= 0, "maxLineLength must not be negative")
        self.maxLineLength = maxLineLength
    }

    /// Bytes held that belong to lines not yet returned by `next()`.
    public var bufferedByteCount: Int { buffer.count - lineStart }

    /// Adds bytes read from the stream.
    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var input = bytes[...]
        if discarding {
            guard let lf = Self.firstLF(in: bytes, from: 0) else { return }
            discarding = false
            input = input[(lf + 1)...]
        }
        guard !input.isEmpty else { return }
        compact()
        buffer.append(contentsOf: input)
    }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            Array(bytes).withUnsafeBytes { append($0) }
        }
    }

    /// The next complete line or over-long report, or nil if more bytes are needed.
    @inlinable
    public mutating func next() -> Frame? {
        let from = scanned
        if let lf = buffer.withUnsafeBytes({ Self.firstLF(in: $0, from: from) }) {
            var end = lf
            if end > lineStart, buffer[end - 1] == LineFramer.cr { end -= 1 }
            let length = end - lineStart
            let frame: Frame = length > maxLineLength ? .overlong(length) : .line(buffer[lineStart..<end])
            lineStart = lf + 1
            scanned = lineStart
            return frame
        }
        scanned = buffer.count
        // A final CR may be the first half of CRLF, so it does not count yet.
        var length = buffer.count - lineStart
        if length > 0, buffer[buffer.count - 1] == LineFramer.cr { length -= 1 }
        guard length > maxLineLength else { return nil }
        buffer.removeSubrange(lineStart...)
        scanned = buffer.count
        discarding = true
        return .overlong(length)
    }

    /// Drops returned lines from the front once they make up at least half
    /// the buffer, so each byte is moved O(1) times on average.
    @usableFromInline
    mutating func compact() {
        guard lineStart > 0 else { return }
        if lineStart == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if lineStart >= buffer.count / 2 {
            buffer.removeSubrange(..<lineStart)
        } else {
            return
        }
        scanned -= lineStart
        lineStart = 0
    }

    // MARK: - In place

    /// One result of `split`: valid only during the call that hands it on.
    public enum Span {
        /// A complete line without LF or trailing CR, where it lies: in the
        /// read's bytes, or (a line cut between reads) in the framer's buffer.
        case line(UnsafeRawBufferPointer)
        /// A line longer than `maxLineLength` was dropped (as `Frame.overlong`).
        case overlong(Int)
    }

    /// Frames the bytes of one read where they lie, handing each line (or
    /// over-long report) to `body` in order, as `append` and `next()` would
    /// give them; the unfinished last line is kept for the next read. When
    /// `body` returns false the rest of `bytes` is dropped (its reader has
    /// gone). Nothing is copied but a line cut between reads.
    @inlinable
    public mutating func split(_ bytes: UnsafeRawBufferPointer, _ body: (Span) -> Bool) {
        var start = 0
        if discarding || lineStart < buffer.count {
            // A line begun in an earlier read ends in this one (or not yet):
            // it is made whole in the buffer.
            guard let lf = Self.firstLF(in: bytes, from: 0) else {
                append(bytes)
                _ = handBuffered(body)
                return
            }
            append(UnsafeRawBufferPointer(rebasing: bytes[...lf]))
            start = lf + 1
            guard handBuffered(body) else { return }
        }
        while let lf = Self.firstLF(in: bytes, from: start) {
            var end = lf
            if end > start, bytes[end - 1] == Self.cr { end -= 1 }
            let length = end - start
            let span: Span = length > maxLineLength ? .overlong(length) : .line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = lf + 1
            guard body(span) else { return }
        }
        if start < bytes.count {
            append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            // Reports the unfinished line once it is already too long.
            _ = handBuffered(body)
        }
    }

    /// Hands `body` what `next()` has; false once `body` says stop.
    @inlinable
    mutating func handBuffered(_ body: (Span) -> Bool) -> Bool {
        while let frame = next() {
            let going = switch frame {
            case .line(let line): line.withUnsafeBytes { body(.line($0)) }
            case .overlong(let length): body(.overlong(length))
            }
            guard going else { return false }
        }
        return true
    }

    /// The offset of the first LF in `bytes[from...]`, or nil: eight bytes a
    /// step (a word's bytes equal to LF found with the carry trick), as fast
    /// as the C library's `memchr` on event-sized lines without calling it
    /// (this module does not import Glibc).
    @inlinable
    static func firstLF(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let n = bytes.count
        var i = from
        while i + 8 <= n {
            let x = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
            // The lowest byte flagged is the first zero byte of x (a borrow
            // may flag bytes above it, never below).
            let zero = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if zero != 0 { return i + zero.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n {
            if base.load(fromByteOffset: i, as: UInt8.self) == lf { return i }
            i += 1
        }
        return nil
    }
}
