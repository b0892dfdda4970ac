import PuzzleSystem

/// WebSocket framing straight into a chunk: the server sends a browser each
/// line as one text message (PROTOCOL.md, "Browsers"), and building the frame
/// where it is sent from saves a copy and an allocation per frame.
extension ByteChunk {
    /// Appends `payload` as one final, unmasked text frame with the shortest
    /// length form (RFC 6455 §5.2): the bytes `WebSocketFrame(opcode: .text,
    /// payload:).encoded()` gives. `payload` must not point into this chunk
    /// (an append may move its bytes).
    func appendTextFrame(_ payload: UnsafeRawBufferPointer) {
        let n = payload.count
        append(0x81)
        if n < 126 {
            append(UInt8(n))
        } else if n <= 0xFFFF {
            append(126)
            append(UInt8(n >> 8))
            append(UInt8(n & 0xFF))
        } else {
            append(127)
            for shift in stride(from: 56, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: UInt64(n) >> UInt64(shift))) }
        }
        append(payload)
    }

    /// Appends each LF-terminated line of `bytes` as one text frame (without
    /// its LF). Returns how many bytes of `bytes` that took: the start of a
    /// last line with no LF yet is left for the caller to carry.
    func appendTextFrames(lines bytes: UnsafeRawBufferPointer) -> Int {
        var start = 0
        while let lf = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) {
            appendTextFrame(UnsafeRawBufferPointer(rebasing: bytes[start..<lf]))
            start = lf + 1
        }
        return start
    }
}
