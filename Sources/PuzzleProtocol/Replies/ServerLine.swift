import PuzzleCore

/// A line from the server as a client sees it. Replies (`OK`, `ERR`, `PONG`)
/// answer requests in order; `S` lines belong to the reply that follows them;
/// `EV` lines are pushed events; `BYE` says the server is closing the connection.
public enum ServerLine: Hashable, Sendable {
    case ok(String)
    case error(code: ErrorCode, message: String)
    case pong(String)
    case state(Substring)
    case event(Substring)
    case bye(WireGoodbye)
    case unknown(Substring)

    /// What a line is by its first word (`kind(of:)`), with its parts: an
    /// `ERR`'s and a `PONG`'s read as `ReplyCodec` reads them, from the bytes.
    public static func classify(_ line: Substring) -> ServerLine {
        var contiguous = line
        return contiguous.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            switch kind(of: bytes) {
            case .event: return .event(line)
            case .state: return .state(line)
            case .ok: return .ok(String(line.dropFirst(3)))
            case .pong:
                var s = LineScanner(bytes)
                _ = s.word()
                return .pong(ReplyCodec.rest(&s))
            case .error:
                var s = LineScanner(bytes)
                _ = s.word()
                // `ERR ` with no code is still a refusal (it completes a request), of no code.
                let e = ReplyCodec.error(&s) ?? ProtocolError(ErrorCode(rawValue: ""), "")
                return .error(code: e.code, message: e.message)
            case .bye: return WireGoodbye.decode(line).map(ServerLine.bye) ?? .unknown(line)
            case .unknown: return .unknown(line)
            }
        }
    }

    /// The kinds of server line, told apart by their first word alone.
    public enum Kind: Hashable, Sendable {
        case ok, error, pong, state, event, bye, unknown
    }

    /// The kind of a line (without its terminator) from its bytes: `EV `,
    /// `S `, `ERR `, and `OK`, `PONG`, `BYE` alone or followed by a space.
    /// `classify`'s rule, for a reader of bytes, which then reads the line's
    /// words with a `LineScanner`. (The load test's bots tell lines apart by
    /// their first two bytes alone: a server's lines need no more, and this
    /// full check cost them 4% of their deliveries a second.)
    @inlinable
    public static func kind(of line: UnsafeRawBufferPointer) -> Kind {
        let n = line.count
        guard n >= 2 else { return .unknown }
        /// Whether the line starts with `word`, then a space (or ends, when `alone`).
        @inline(__always) func starts(_ word: StaticString, alone: Bool) -> Bool {
            let k = word.utf8CodeUnitCount
            guard n >= k else { return false }
            let w = word.utf8Start
            for i in 1..<k where line[i] != w[i] { return false }
            return n == k ? alone : line[k] == 0x20
        }
        switch line[0] {
        case UInt8(ascii: "E"): return starts("EV", alone: false) ? .event : starts("ERR", alone: false) ? .error : .unknown
        case UInt8(ascii: "S"): return line[1] == 0x20 ? .state : .unknown
        case UInt8(ascii: "O"): return starts("OK", alone: true) ? .ok : .unknown
        case UInt8(ascii: "P"): return starts("PONG", alone: true) ? .pong : .unknown
        case UInt8(ascii: "B"): return starts("BYE", alone: true) ? .bye : .unknown
        default: return .unknown
        }
    }

    /// Whether this line answers a request (and so completes one in-flight request).
    public var isReply: Bool {
        switch self {
        case .ok, .error, .pong: return true
        default: return false
        }
    }
}

/// Reads `key=value` fields out of a reply like `OK digest seq=12 value=00ab...`.
public func replyFields(_ text: some StringProtocol) -> [String: String] {
    var fields: [String: String] = [:]
    for word in text.split(separator: " ") {
        let kv = word.split(separator: "=", maxSplits: 1)
        if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
    }
    return fields
}
