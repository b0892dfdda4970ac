/// Splits a byte stream into LF-terminated lines, with a length limit.
///
/// Usage (ByteToMessageDecoder style): after each read, `append` the bytes,
/// then call `next()` until it returns nil. The framer remembers how far it
/// has scanned for LF, so bytes are examined once no matter how they arrive,
/// and it drops an over-long line as soon as it is detected, so it holds at
/// most about `maxLineLength` bytes plus whatever one `append` brought.
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

    private var buffer: [UInt8] = []
    /// Start of the first line not yet returned.
    private var lineStart = 0
    /// Bytes in `lineStart..<scanned` are known to contain no LF.
    private var scanned = 0
    /// Inside an over-long line already reported: drop bytes up to the next LF.
    private var discarding = false

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    public init(maxLineLength: Int) {
        precondition(maxLineLength >= 0, "maxLineLength must not be negative")
        self.maxLineLength = maxLineLength
    }

    /// Bytes held that belong to lines not yet returned by `next()`.
    public var bufferedByteCount: Int { buffer.count - lineStart }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var input = bytes[...]
        if discarding {
            guard let lf = input.firstIndex(of: LineFramer.lf) else { return }
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
    public mutating func next() -> Frame? {
        if let lf = buffer[scanned...].firstIndex(of: LineFramer.lf) {
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
    private mutating func compact() {
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
}
