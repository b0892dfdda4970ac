import Glibc
import PuzzleSystem

/// The bytes a connection received, split into LF-terminated lines, copied
/// twice in all: the socket reads straight into this buffer's free end, and
/// each whole line becomes its `String` from there. (Reading into a scratch
/// array, appending that to a `LineFramer`, taking each line out as an array
/// and decoding that copied every byte four times before the session read it.)
///
/// Framing as `LineFramer` does it: a CR before the LF is dropped, and a line
/// longer than `maxLineLength` bytes (without its terminator) is dropped whole,
/// as soon as it is seen to be too long, framing going on after its LF. So the
/// buffer holds at most one line of `maxLineLength` and one read's bytes.
public final class IncomingLines {
    /// The longest line kept, without its terminator.
    public let maxLineLength: Int
    /// The most bytes one `receive` asks the socket for.
    public static let readSize = 64 * 1024

    private var storage: UnsafeMutableRawBufferPointer
    /// The first byte of the first line not yet returned.
    private var start = 0
    /// The end of the bytes received.
    private var end = 0
    /// Bytes in `start..<scanned` are known to hold no LF.
    private var scanned = 0
    /// Inside a line too long to keep: bytes are dropped up to its LF.
    private var discarding = false

    public init(maxLineLength: Int) {
        precondition(maxLineLength >= 0, "maxLineLength must not be negative")
        self.maxLineLength = maxLineLength
        storage = .allocate(byteCount: Self.readSize, alignment: 1)
    }

    deinit { storage.deallocate() }

    /// Bytes held for lines not yet returned.
    public var bufferedByteCount: Int { end - start }

    /// Lets `read` fill the free end of the buffer (up to `readSize` bytes;
    /// `.processed(n)`: it wrote `n`), and keeps what it wrote.
    public func receive(_ read: (UnsafeMutableRawBufferPointer) throws(Errno) -> IOResult) throws(Errno) -> IOResult {
        makeRoom()
        let result = try read(UnsafeMutableRawBufferPointer(rebasing: storage[end..<(end + Self.readSize)]))
        if case .processed(let n) = result { end += min(max(0, n), Self.readSize) }
        return result
    }

    /// The next whole line (without LF or a CR before it), or nil until more bytes come.
    public func nextLine() -> String? {
        while true {
            guard let lf = firstLF() else {
                scanned = end
                if discarding || pendingLength() > maxLineLength {
                    // Too long already: its bytes are dropped as they come.
                    discarding = true
                    start = end
                    scanned = end
                }
                return nil
            }
            let lineStart = start
            start = lf + 1
            scanned = start
            if discarding {
                discarding = false
                continue
            }
            var lineEnd = lf
            if lineEnd > lineStart, storage[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            guard lineEnd - lineStart <= maxLineLength else { continue }
            return String(decoding: UnsafeRawBufferPointer(rebasing: storage[lineStart..<lineEnd]), as: UTF8.self)
        }
    }

    /// The bytes of the unfinished line, less a final CR (the first half of a CRLF, maybe).
    private func pendingLength() -> Int {
        let length = end - start
        return length > 0 && storage[end - 1] == UInt8(ascii: "\r") ? length - 1 : length
    }

    private func firstLF() -> Int? {
        guard scanned < end, let base = storage.baseAddress else { return nil }
        guard let found = memchr(base + scanned, Int32(UInt8(ascii: "\n")), end - scanned) else { return nil }
        return base.distance(to: found)
    }

    /// Moves the unfinished line to the front, and grows the buffer when a
    /// read would not fit behind it (a long line: at most `maxLineLength` are kept).
    private func makeRoom() {
        if start == end {
            start = 0
            end = 0
            scanned = 0
        } else if start > 0 {
            let kept = end - start
            if let base = storage.baseAddress { memmove(base, base + start, kept) }
            scanned -= start
            start = 0
            end = kept
        }
        if storage.count - end < Self.readSize {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(storage.count * 2, end + Self.readSize), alignment: 1)
            if end > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<end])) }
            storage.deallocate()
            storage = grown
        }
    }
}
