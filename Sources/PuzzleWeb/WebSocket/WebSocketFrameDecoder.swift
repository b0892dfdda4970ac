/// Reads client frames from a byte stream fed in pieces of any size.
///
/// Checks what RFC 6455 §5 requires of a frame by itself: the mask bit set
/// (clients must mask), reserved bits zero (no extension was agreed), a
/// known opcode, control frames final and at most 125 bytes, lengths in
/// their shortest encoding with the 64-bit form's top bit clear. A payload
/// longer than `maxPayload` fails before any of it is buffered.
public struct WebSocketFrameDecoder: Sendable {
    public let maxPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: WebSocketError?

    public init(maxPayload: Int) {
        self.maxPayload = maxPayload
    }

    /// Bytes held that belong to frames not yet returned.
    public var bufferedByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The same for bytes where they lie: a copy at memory speed (the generic
    /// form is not specialised across modules, and steps a byte at a time).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Drops the bytes already decoded once they are all of the buffer or
    /// more than 4 KiB of it.
    private mutating func compact() {
        if start > 0 && (start == buffer.count || start > 4096) {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// The next whole frame, nil while more bytes are needed, or the error
    /// that fails the connection (then always that error).
    public mutating func next() -> Result<WebSocketFrame?, WebSocketError> {
        if let failure { return .failure(failure) }
        let available = buffer.count - start
        guard available >= 2 else { return .success(nil) }
        let b0 = buffer[start], b1 = buffer[start + 1]
        guard b0 & 0x70 == 0 else { return fail(.protocolError("reserved bits set without an extension")) }
        guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
            return fail(.protocolError("unknown opcode \(b0 & 0x0F)"))
        }
        let fin = b0 & 0x80 != 0
        guard b1 & 0x80 != 0 else { return fail(.protocolError("client frames must be masked")) }
        var length = UInt64(b1 & 0x7F)
        var headerLength = 2
        if opcode.isControl {
            guard fin else { return fail(.protocolError("fragmented control frame")) }
            guard length <= 125 else { return fail(.protocolError("control frame longer than 125 bytes")) }
        }
        if length == 126 {
            guard available >= 4 else { return .success(nil) }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            guard length >= 126 else { return fail(.protocolError("length not in its shortest form")) }
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return .success(nil) }
            length = 0
            for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
            guard length >> 63 == 0 else { return fail(.protocolError("64-bit length with its top bit set")) }
            guard length > 0xFFFF else { return fail(.protocolError("length not in its shortest form")) }
            headerLength = 10
        }
        guard length <= UInt64(maxPayload) else { return fail(.tooBig(limit: maxPayload)) }
        let total = headerLength + 4 + Int(length)
        guard available >= total else { return .success(nil) }
        let keyStart = start + headerLength
        let key = (buffer[keyStart], buffer[keyStart + 1], buffer[keyStart + 2], buffer[keyStart + 3])
        var payload = [UInt8](repeating: 0, count: Int(length))
        let payloadStart = keyStart + 4
        for i in 0..<Int(length) {
            let k: UInt8
            switch i & 3 {
            case 0: k = key.0
            case 1: k = key.1
            case 2: k = key.2
            default: k = key.3
            }
            payload[i] = buffer[payloadStart + i] ^ k
        }
        start += total
        return .success(WebSocketFrame(fin: fin, opcode: opcode, payload: payload))
    }

    private mutating func fail(_ error: WebSocketError) -> Result<WebSocketFrame?, WebSocketError> {
        failure = error
        buffer = []
        start = 0
        return .failure(error)
    }
}
