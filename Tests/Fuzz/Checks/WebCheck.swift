import PuzzleCore
import PuzzleServer
import PuzzleWeb

/// A browser connection's bytes, however they are cut into reads, give the
/// same actions (responses, lines, upgrade, end) as the whole stream does;
/// every line is valid UTF-8 within the message limit, every response
/// starts with a status line, nothing follows the end; and the request
/// parser alone gives the same heads byte by byte as all at once.
///
/// Input: byte 0 seeds the read sizes, the rest is the stream (seeds start
/// with a request, often an upgrade, then client frames).
enum WebCheck {
    static let maxMessage = 64
    static let limits = HTTPLimits(maxRequestLine: 256, maxHeaderBytes: 512, maxHeaderCount: 12)

    /// What a session did, with sends joined (their grouping does not matter).
    struct Outcome: Equatable {
        var sent: [UInt8] = []
        var lines: [[UInt8]] = []
        var upgrades = 0
        var ended: String?
    }

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        guard !input.isEmpty else { return }
        let stream = Array(input[1...])
        let whole = try outcome([stream[...]])
        var rng = SeededGenerator(seed: UInt64(input[0]) &* 0x9E37_79B9 &+ UInt64(stream.count))
        var reads: [ArraySlice<UInt8>] = []
        var i = 0
        while i < stream.count {
            let n = Int(rng.next() % 17) + 1
            reads.append(stream[i..<min(stream.count, i + n)])
            i += n
        }
        let split = try outcome(reads)
        try require(split == whole, .web, "split reads differ from the whole stream: \(split.lines.count) vs \(whole.lines.count) lines, ended \(split.ended ?? "-") vs \(whole.ended ?? "-")")
        try checkParser(stream)
    }

    static func outcome(_ reads: [ArraySlice<UInt8>]) throws(FuzzFailure) -> Outcome {
        var session = WebSession(site: WebSite(origins: .sameHost), limits: limits, maxMessage: maxMessage)
        var out = Outcome()
        for read in reads {
            // No room in the output: each answer holds the next request back
            // until the output drains, which changes nothing but the pace.
            var actions = session.receive(read, now: 0, outputRoom: 0)
            // The server answers a picture request, or its output drains,
            // then the session goes on.
            while true {
                let asked = actions.contains { if case .picture = $0 { true } else { false } }
                try take(actions, into: &out)
                if asked {
                    actions = session.answerPicture(HTTPResponse(status: .ok, body: Array("picture\n".utf8)), now: 0, outputRoom: 0)
                } else if session.isHeldBack {
                    actions = session.outputDrained(now: 0, outputRoom: 0)
                } else {
                    break
                }
            }
        }
        return out
    }

    static func take(_ actions: [WebSession.Action], into out: inout Outcome) throws(FuzzFailure) {
        for action in actions {
            try require(out.ended == nil, .web, "an action after the end: \(action)")
            switch action {
            case .send(let bytes):
                if out.upgrades == 0 {
                    try require(bytes.starts(with: Array("HTTP/1.1 ".utf8)), .web, "a response without a status line: \(bytes.escaped)")
                }
                out.sent += bytes
            case .line(let bytes):
                try require(out.upgrades == 1, .web, "a line before the upgrade")
                try require(bytes.count <= maxMessage && UTF8Validator.isValid(bytes), .web, "line \(bytes.escaped) over the limit or not UTF-8")
                out.lines.append(bytes)
            case .picture(let room, let width, _):
                try require(out.upgrades == 0 && WebSite.pictureWidths.contains(width) && !room.contains("/"), .web, "picture \(room) \(width)")
                out.sent += Array("picture \(room) \(width)\n".utf8)
            case .upgraded:
                out.upgrades += 1
                try require(out.upgrades == 1, .web, "upgraded twice")
            case .endHTTP(let why):
                out.ended = why
            case .endWebSocket(let frame, let why):
                // A close frame (unmasked, its length in the second byte) whose body is
                // empty or a code and a reason (RFC 6455 5.5.1): empty is the echo of
                // a peer's close that had no code (1005 may not be sent).
                let body = frame.count - 2
                try require(frame.isEmpty || (frame[0] == 0x88 && body >= 0 && body != 1 && body <= 125 && Int(frame[1]) == body),
                            .web, "bad close frame \(frame.escaped)")
                out.sent += frame
                out.ended = why
            }
        }
    }

    static func checkParser(_ stream: [UInt8]) throws(FuzzFailure) {
        func events(_ reads: [ArraySlice<UInt8>]) -> [HTTPRequestParser.Event] {
            var parser = HTTPRequestParser(limits: limits)
            var out: [HTTPRequestParser.Event] = []
            for read in reads {
                parser.append(read)
                while let event = parser.next() {
                    out.append(event)
                    if case .failed = event { return out }
                }
            }
            return out
        }
        let whole = events([stream[...]])
        let bytewise = events(stream.indices.map { stream[$0...$0] })
        try require(whole == bytewise, .web, "the parser gives \(whole.count) events whole, \(bytewise.count) byte by byte")
        for case .head(let head) in whole {
            try require(head.headers.fields.count <= limits.maxHeaderCount, .web, "\(head.headers.fields.count) header fields passed the limit")
        }
    }

    /// Starting inputs: plain requests, pipelined ones, and upgrades followed by frames.
    static var seeds: [[UInt8]] {
        let host = "Host: 127.0.0.1:7171\r\n"
        let upgrade = Array(("GET /ws HTTP/1.1\r\n" + host + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:7171\r\n\r\n").utf8)
        func frame(_ op: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
            WebSocketFrame(fin: fin, opcode: op, payload: Array(text.utf8)).encoded(mask: (1, 2, 3, 4))
        }
        return [
            Array(("GET / HTTP/1.1\r\n" + host + "\r\nHEAD /app.js HTTP/1.1\r\n" + host + "If-None-Match: \"x\"\r\n\r\n").utf8),
            Array(("GET /picture/lobby?w=300 HTTP/1.1\r\n" + host + "\r\nGET /nope HTTP/1.0\r\n\r\n").utf8),
            Array(("POST / HTTP/1.1\r\n" + host + "Content-Length: 3\r\n\r\nabc").utf8),
            upgrade + frame(.text, "HELLO 2 ann") + frame(.ping, "p") + frame(.text, "JO", fin: false) + frame(.continuation, "IN lobby") + frame(.close, "\u{3}\u{E8}bye"),
            upgrade + frame(.text, "κόσ", fin: false) + frame(.pong, "") + frame(.continuation, "με"),
            upgrade + [0x81, 0x05] + Array("hello".utf8),
            upgrade + frame(.binary, "x"),
        ].map { [7] + $0 }
    }
}
