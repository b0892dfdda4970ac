import PuzzleWeb

/// One browser connection as a pure state machine: bytes in, actions out,
/// no socket and no clock (the time is passed in).
///
///     http ──GET /ws, a valid handshake──► webSocket ──close, or a broken frame──► ended
///       └──Connection: close, an error, a timeout─────────────────────────────────► ended
///
/// In the HTTP phase each request head is answered from the `WebSite`
/// (keep-alive, pipelining: requests sent at once are answered only as fast
/// as their answers leave, see `receive`'s `outputRoom`); in the WebSocket
/// phase each text message is
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
        /// server has the rooms): hand the response to `answerPicture`, which
        /// sends it; until then later requests wait.
        case picture(room: String, width: Int, head: HTTPRequestHead)
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
    /// (`answerPicture`): later requests wait, unparsed, so answers keep
    /// their order; the value is the request it answers.
    private var awaitingPicture: HTTPRequestHead?
    /// Pipelined requests wait, unparsed, because the answers before them
    /// filled the connection's output past its limit (`outputDrained`
    /// goes on once they have left). The server reads nothing from the
    /// socket meanwhile, so what waits is bounded by one read.
    public var isHeldBack: Bool { heldBack && phase == .http }
    private var heldBack = false
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
    public var isReadingHead: Bool { phase == .http && headStartedAt != nil && awaitingPicture == nil && !isHeldBack }

    /// Whether requests already received wait for their turn (a picture
    /// being drawn, or output to leave): they are owed answers, so a peer
    /// that ended its side is not closed on yet.
    public var hasRequestsWaiting: Bool { phase == .http && (awaitingPicture != nil || isHeldBack) }

    /// Takes bytes from the peer; `now` is when the first of them arrived
    /// (it dates the start of a request head: the header timeout runs from
    /// a head's first byte). `outputRoom` is how many more bytes the
    /// connection's output may take before it is over its limit: requests
    /// are answered while it is not, then the rest wait (`isHeldBack`) for
    /// `outputDrained`, so a client that pipelines hundreds of requests is
    /// read only as fast as their answers leave.
    public mutating func receive(_ bytes: some Collection<UInt8>, now: Int64, outputRoom: Int = .max) -> [Action] {
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
            if isHeldBack { return [] }
            readRequests(now: now, outputRoom: outputRoom, into: &actions)
        }
        return actions
    }

    private mutating func readRequests(now: Int64, outputRoom: Int, into actions: inout [Action]) {
        var left = outputRoom
        while phase == .http && awaitingPicture == nil {
            // Over the limit: the next request waits, unparsed (its head's
            // clock starts again once it is read: the wait is the server's).
            if left < 0 {
                heldBack = true
                headStartedAt = nil
                return
            }
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
                    left -= respond(response, to: head, into: &actions)
                case .picture(let room, let width):
                    actions.append(.picture(room: room, width: width, head: head))
                    awaitingPicture = head
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

    /// Sends `response` to `head` and returns its size. An error (400 and
    /// up) closes the connection whatever the request asked (PROTOCOL.md:
    /// refusals close): a connection whose state is in doubt is not kept.
    private mutating func respond(_ response: HTTPResponse, to head: HTTPRequestHead, into actions: inout [Action]) -> Int {
        let refused = response.status.rawValue >= 400
        let keepAlive = head.keepAlive && !refused
        let bytes = response.encoded(keepAlive: keepAlive)
        actions.append(.send(bytes))
        if !keepAlive {
            actions.append(.endHTTP(refused ? "HTTP \(response.status.rawValue) \(head.method) \(head.path)" : "HTTP done"))
            phase = .ended
        }
        return bytes.count
    }

    /// The server has the answer to the picture asked for (`.picture`): it
    /// is sent, then the connection ends (`Connection: close`, or a refusal
    /// such as a 404 for an unknown room) or its next requests are read, as
    /// in `receive`.
    public mutating func answerPicture(_ response: HTTPResponse, now: Int64, outputRoom: Int = .max) -> [Action] {
        guard let head = awaitingPicture, phase == .http else { return [] }
        awaitingPicture = nil
        var actions: [Action] = []
        let bytes = respond(response, to: head, into: &actions)
        if phase == .http { readRequests(now: now, outputRoom: outputRoom - bytes, into: &actions) }
        return actions
    }

    /// The connection's output went back under its limit: the requests that
    /// waited for it (`isHeldBack`) are read and answered, as in `receive`.
    public mutating func outputDrained(now: Int64, outputRoom: Int = .max) -> [Action] {
        guard isHeldBack else { return [] }
        heldBack = false
        var actions: [Action] = []
        readRequests(now: now, outputRoom: outputRoom, into: &actions)
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
