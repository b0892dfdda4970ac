/// What a client's frames amount to, one at a time.
public enum WebSocketMessage: Sendable, Equatable {
    /// A whole text message (its fragments joined), valid UTF-8.
    case text([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// The peer's close: its code (nil if it sent none) and reason.
    case close(WebSocketCloseCode?, String)
}

/// Turns a client's byte stream into messages (RFC 6455 §5.4, §5.5, §8.1):
/// joins fragments, lets control frames in between them, checks that
/// continuations follow a started message and that none starts inside
/// another, checks text as UTF-8 across fragment boundaries as it arrives
/// (failing at the first impossible byte), bounds the message size, and
/// checks close frames (a valid code, a UTF-8 reason). Binary messages are
/// refused: the game speaks text lines.
public struct WebSocketMessageReader: Sendable {
    public let maxMessage: Int
    private var decoder: WebSocketFrameDecoder
    /// The text message being assembled, while inside a fragmented one.
    private var partial: [UInt8]?
    private var utf8 = UTF8Validator()
    private var failure: WebSocketError?

    public init(maxMessage: Int) {
        self.maxMessage = maxMessage
        decoder = WebSocketFrameDecoder(maxPayload: maxMessage)
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        decoder.append(bytes)
    }

    /// The same for bytes where they lie (see `WebSocketFrameDecoder.append`).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        decoder.append(bytes)
    }

    /// The next message, nil while more bytes are needed, or the error that
    /// fails the connection (then always that error).
    public mutating func next() -> Result<WebSocketMessage?, WebSocketError> {
        if let failure { return .failure(failure) }
        while true {
            let frame: WebSocketFrame
            switch decoder.next() {
            case .failure(let error): return fail(error)
            case .success(nil): return .success(nil)
            case .success(let f?): frame = f
            }
            switch frame.opcode {
            case .ping: return .success(.ping(frame.payload))
            case .pong: return .success(.pong(frame.payload))
            case .close: return closeMessage(frame.payload)
            case .binary:
                return fail(partial == nil ? .unsupportedData : .protocolError("new message inside a fragmented one"))
            case .text:
                guard partial == nil else { return fail(.protocolError("new message inside a fragmented one")) }
                utf8 = UTF8Validator()
                // A message in one frame (what browsers send) is its payload: no copy.
                if frame.fin {
                    guard frame.payload.count <= maxMessage else { return fail(.tooBig(limit: maxMessage)) }
                    guard utf8.feed(frame.payload), utf8.isComplete else { return fail(.invalidUTF8) }
                    return .success(.text(frame.payload))
                }
                partial = []
            case .continuation:
                guard partial != nil else { return fail(.protocolError("continuation without a message to continue")) }
            }
            guard partial!.count + frame.payload.count <= maxMessage else { return fail(.tooBig(limit: maxMessage)) }
            guard utf8.feed(frame.payload) else { return fail(.invalidUTF8) }
            partial! += frame.payload
            if frame.fin {
                guard utf8.isComplete else { return fail(.invalidUTF8) }
                let message = partial!
                partial = nil
                return .success(.text(message))
            }
        }
    }

    private mutating func closeMessage(_ payload: [UInt8]) -> Result<WebSocketMessage?, WebSocketError> {
        if payload.isEmpty { return .success(.close(nil, "")) }
        guard payload.count >= 2 else { return fail(.protocolError("close payload of one byte")) }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else { return fail(.protocolError("close code \(code.rawValue) may not be sent")) }
        let reason = payload[2...]
        guard UTF8Validator.isValid(reason) else { return fail(.invalidUTF8) }
        return .success(.close(code, String(decoding: reason, as: UTF8.self)))
    }

    private mutating func fail(_ error: WebSocketError) -> Result<WebSocketMessage?, WebSocketError> {
        failure = error
        partial = nil
        return .failure(error)
    }
}
