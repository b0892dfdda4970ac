import PuzzleWeb

/// One browser connection as a pure state machine: bytes in, actions out,
/// no socket and no clock (the time is passed in).
///
///     http ──GET /ws, a valid handshake──► webSocket ──close, or a broken frame──► ended
///       └──Connection: close, an error, a timeout─────────────────────────────────► ended
///
/// In the HTTP phase each request head is answered from the `WebSite`
/// (keep-alive, pipelining); in the WebSocket phase each text message is
/// one protocol line, pings are answered, and a close is answered with a
/// close (RFC 6455 §5.5.1). A failed connection is sent the close frame its
/// error maps to (1002, 1007, 1009, 1003).
public struct WebSession {
    /// What the server must do, in order.
    public enum Action: Equatable {
        /// Send these bytes as they are (responses, WebSocket control frames).
        case send([UInt8])
        /// One protocol line from a text message (without a terminator).
        case line([UInt8])
        /// Answer `head` with the picture of `room`, `width` pixels wide (the
        /// server has the rooms), then call `resume` (the connection stays
        /// open if `keepAlive`; until then later requests wait).
        case picture(room: String, width: Int, head: HTTPRequestHead, keepAlive: Bool)
        /// The 101 went out: from now on the server's lines go out as text frames.
        case upgraded
        /// Close once everything is sent (HTTP: `Connection: close`, or a
        /// request that cannot be answered on this connection).
        case endHTTP(String)
        /// The WebSocket ended: send `closeFrame` (empty when this side's
        /// close went out already) after the replies to the lines before it,
        /// then close once everything is sent.
        case endWebSocket(closeFrame: [UInt8], why: String)
    }

    public enum Phase: Equatable {
        case http
        case webSocket
        case ended
    }

    public let site: WebSite
    public private(set) var phase: Phase = .http
    private var parser: HTTPRequestParser
    private var reader: WebSocketMessageReader
    /// When the request head being read began (its first byte), for the header timeout.
    public private(set) var headStartedAt: Int64?
    /// Whether this side sent its close frame already.
    private var sentClose = false
    /// A picture was asked for and the server has not answered it yet
    /// (`resume`): later requests wait, unparsed, so answers keep their
    /// order; the value says whether the connection stays open after it.
    private var awaitingPicture: Bool?
    /// Bytes a client may send while it waits for a picture.
    static let maxBytesWhileWaiting = 1 << 20
    private var bytesWhileWaiting = 0

    public init(site: WebSite, limits: HTTPLimits, maxMessage: Int) {
        self.site = site
        parser = HTTPRequestParser(limits: limits)
        reader = WebSocketMessageReader(maxMessage: maxMessage)
    }

    /// Whether the connection is an HTTP one inside a request head (what
    /// the header timeout applies to).
    public var isReadingHead: Bool { phase == .http && headStartedAt != nil && awaitingPicture == nil }

    /// Takes bytes from the peer; `now` dates the start of a request head.
    public mutating func receive(_ bytes: some Collection<UInt8>, now: Int64) -> [Action] {
        var actions: [Action] = []
        switch phase {
        case .ended: return []
        case .webSocket:
            // Where the bytes lie contiguously (a read, an array), the reader
            // copies them at memory speed rather than through the generic form.
            if bytes.withContiguousStorageIfAvailable({ reader.append(UnsafeRawBufferPointer($0)) }) == nil { reader.append(bytes) }
            readMessages(into: &actions)
        case .http:
            parser.append(bytes)
            if awaitingPicture != nil {
                bytesWhileWaiting += bytes.count
                if bytesWhileWaiting > Self.maxBytesWhileWaiting {
                    phase = .ended
                    return [.endHTTP("HTTP sent too much while waiting for a picture")]
                }
                return []
            }
            readRequests(now: now, into: &actions)
        }
        return actions
    }

    private mutating func readRequests(now: Int64, into actions: inout [Action]) {
        while phase == .http && awaitingPicture == nil {
            guard let event = parser.next() else {
                if parser.isInsideHead { headStartedAt = headStartedAt ?? now } else { headStartedAt = nil }
                return
            }
            headStartedAt = nil
            switch event {
            case .failed(let error):
                actions.append(.send(HTTPResponse.error(error).encoded(keepAlive: false)))
                actions.append(.endHTTP("HTTP \(error)"))
                phase = .ended
            case .head(let head):
                switch site.answer(head) {
                case .respond(var response):
                    response.isHead = head.method == "HEAD"
                    // An error leaves a connection whose state is in doubt: close it.
                    let keepAlive = head.keepAlive && response.status.rawValue < 400
                    actions.append(.send(response.encoded(keepAlive: keepAlive)))
                    if !keepAlive {
                        actions.append(.endHTTP(response.status.rawValue < 400 ? "HTTP done" : "HTTP \(response.status.rawValue) \(head.method) \(head.path)"))
                        phase = .ended
                    }
                case .picture(let room, let width):
                    actions.append(.picture(room: room, width: width, head: head, keepAlive: head.keepAlive))
                    awaitingPicture = head.keepAlive
                    bytesWhileWaiting = 0
                case .upgrade(let response):
                    actions.append(.send(response.encoded(keepAlive: true)))
                    actions.append(.upgraded)
                    phase = .webSocket
                    // Frames sent right behind the handshake, before the 101 was seen.
                    reader.append(parser.takeBuffered())
                    readMessages(into: &actions)
                }
            }
        }
    }

    private mutating func readMessages(into actions: inout [Action]) {
        while phase == .webSocket {
            switch reader.next() {
            case .success(nil):
                return
            case .success(.text(let bytes)?):
                actions.append(.line(bytes))
            case .success(.ping(let payload)?):
                actions.append(.send(WebSocketFrame(opcode: .pong, payload: payload).encoded()))
            case .success(.pong?):
                continue
            case .success(.close(let code, _)?):
                // Echo the peer's code (none for none) unless ours went first.
                let frame = sentClose ? [] : (code.map { WebSocketFrame.close($0) } ?? WebSocketFrame(opcode: .close)).encoded()
                sentClose = true
                phase = .ended
                actions.append(.endWebSocket(closeFrame: frame, why: "WebSocket closed by the peer (\(code.map { String($0.rawValue) } ?? "no code"))"))
            case .failure(let error):
                let frame = close(error.closeCode, reason: error.description) ?? []
                actions.append(.endWebSocket(closeFrame: frame, why: "WebSocket \(error.closeCode.rawValue) \(error)"))
            }
        }
    }

    /// The server sent the picture asked for: the connection ends (the
    /// request said `Connection: close`) or its next requests are read.
    public mutating func resume(now: Int64) -> [Action] {
        guard let keepAlive = awaitingPicture, phase == .http else { return [] }
        awaitingPicture = nil
        guard keepAlive else {
            phase = .ended
            return [.endHTTP("HTTP done")]
        }
        var actions: [Action] = []
        readRequests(now: now, into: &actions)
        return actions
    }

    /// The server ends the WebSocket: the close frame to send last, or nil
    /// when the WebSocket is not open (never upgraded, or closed already).
    public mutating func close(_ code: WebSocketCloseCode, reason: String) -> [UInt8]? {
        guard phase == .webSocket else { return nil }
        phase = .ended
        sentClose = true
        return WebSocketFrame.close(code, reason: reason).encoded()
    }

    /// The header timeout ran out (`headStartedAt` + limit ≤ now): 408 and the end.
    public mutating func timeOut() -> [Action] {
        guard isReadingHead else { return [] }
        phase = .ended
        headStartedAt = nil
        return [.send(HTTPResponse.error(.timeout).encoded(keepAlive: false)), .endHTTP("HTTP 408 header timeout")]
    }

    /// A server ping (keeps idle links alive through proxies).
    public func ping(_ payload: [UInt8] = []) -> [UInt8] {
        WebSocketFrame(opcode: .ping, payload: payload).encoded()
    }
}
