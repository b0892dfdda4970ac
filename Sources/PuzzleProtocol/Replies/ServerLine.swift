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

    public static func classify(_ line: Substring) -> ServerLine {
        if line.hasPrefix("EV ") { return .event(line) }
        if line.hasPrefix("S ") { return .state(line) }
        if line == "OK" { return .ok("") }
        if line.hasPrefix("OK ") { return .ok(String(line.dropFirst(3))) }
        if line == "PONG" || line.hasPrefix("PONG ") { return .pong(String(line.dropFirst(4).drop { $0 == " " })) }
        if line.hasPrefix("ERR ") {
            let rest = line.dropFirst(4)
            let code = rest.prefix { $0 != " " }
            let message = rest.dropFirst(code.count).drop { $0 == " " }
            return .error(code: ErrorCode(rawValue: String(code)), message: String(message))
        }
        if let bye = WireGoodbye.decode(line) { return .bye(bye) }
        return .unknown(line)
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
