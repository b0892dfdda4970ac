/// Reads request heads from a byte stream fed in pieces of any size (the
/// head may arrive a byte at a time or several pipelined requests at once).
///
/// Limits are checked as bytes arrive, before a line is kept: a request line
/// longer than `maxRequestLine` fails with 414 as soon as that many bytes
/// are seen without its end, header fields past `maxHeaderBytes` or
/// `maxHeaderCount` with 431. Requests with a body are refused (413): the
/// server only serves GET and HEAD. After a failure the parser stays failed.
public struct HTTPRequestParser: Sendable {
    /// One result of `next()`.
    public enum Event: Sendable, Equatable {
        /// A whole request head; bytes after it stay buffered for the next one.
        case head(HTTPRequestHead)
        /// The stream is not a request the server takes; answer and close.
        case failed(HTTPError)
    }

    public let limits: HTTPLimits
    private var buffer: [UInt8] = []
    /// Start of the line being read.
    private var lineStart = 0
    /// Bytes in `lineStart..<scanned` hold no LF.
    private var scanned = 0
    private var requestLine: (method: String, target: String, minor: Int)?
    private var headers = HTTPHeaders()
    private var headerBytes = 0
    private var failure: HTTPError?

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Whether part of a request head has arrived and its end has not (what
    /// the header timeout runs on). Blank lines before a request do not count.
    public var isInsideHead: Bool { requestLine != nil || buffer.count > lineStart }

    /// Bytes buffered after the last head returned (for a WebSocket upgrade:
    /// the first frames, sent without waiting for the 101).
    public mutating func takeBuffered() -> [UInt8] {
        let rest = Array(buffer[lineStart...])
        buffer.removeAll()
        lineStart = 0
        scanned = 0
        return rest
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        if lineStart > 0 && lineStart == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            lineStart = 0
            scanned = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete head or failure, or nil while more bytes are needed.
    public mutating func next() -> Event? {
        if let failure { return .failed(failure) }
        while true {
            guard let lf = buffer[scanned...].firstIndex(of: 0x0A) else {
                scanned = buffer.count
                // Limits hold before the line is complete: a peer that never sends
                // LF is cut off once it has sent more than any valid line.
                let pending = buffer.count - lineStart
                if requestLine == nil, pending > limits.maxRequestLine + 1 { return fail(.uriTooLong) }
                if requestLine != nil, headerBytes + pending > limits.maxHeaderBytes + 1 { return fail(.headersTooLarge) }
                return nil
            }
            var end = lf
            if end > lineStart && buffer[end - 1] == 0x0D { end -= 1 }
            let line = buffer[lineStart..<end]
            lineStart = lf + 1
            scanned = lineStart
            if requestLine == nil {
                // RFC 9112 §2.2: empty lines before a request line are ignored.
                if line.isEmpty { continue }
                guard line.count <= limits.maxRequestLine else { return fail(.uriTooLong) }
                switch Self.parseRequestLine(line) {
                case .success(let parsed): requestLine = parsed
                case .failure(let error): return fail(error)
                }
                continue
            }
            if line.isEmpty { return finishHead() }
            headerBytes += line.count + 2
            guard headerBytes <= limits.maxHeaderBytes + 2, headers.fields.count < limits.maxHeaderCount else {
                return fail(.headersTooLarge)
            }
            switch Self.parseField(line) {
            case .success(let field): headers.add(field.0, field.1)
            case .failure(let error): return fail(error)
            }
        }
    }

    private mutating func fail(_ error: HTTPError) -> Event {
        failure = error
        buffer = []
        lineStart = 0
        scanned = 0
        return .failed(error)
    }

    private mutating func finishHead() -> Event {
        guard let (method, target, minor) = requestLine else { return fail(.badRequest("no request line")) }
        let head = HTTPRequestHead(method: method, target: target, minorVersion: minor, headers: headers)
        requestLine = nil
        headers = HTTPHeaders()
        headerBytes = 0
        if minor >= 1 && head.headers.count("Host") != 1 { return fail(.badRequest("HTTP/1.1 needs exactly one Host field")) }
        if head.headers["Transfer-Encoding"] != nil { return fail(.bodyNotAccepted) }
        let lengths = head.headers.values("Content-Length")
        if !lengths.isEmpty {
            guard lengths.count == 1, let length = UInt64(lengths[0].trimmingHTTPWhitespace()) else {
                return fail(.badRequest("bad Content-Length"))
            }
            if length > 0 { return fail(.bodyNotAccepted) }
        }
        return .head(head)
    }

    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<(method: String, target: String, minor: Int), HTTPError> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            return .failure(.badRequest("malformed request line"))
        }
        // The target: visible ASCII only (RFC 3986 characters; no spaces, no controls).
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(.badRequest("malformed request target"))
        }
        // A version is well formed as `HTTP/` and a major number, maybe with
        // a minor one (`HTTP/2`, `HTTP/3`, `HTTP/1.2`): only 1.0 and 1.1 are
        // spoken, any other well-formed version is 505 (not 400: the request
        // is fine, its version is not ours); anything else is malformed.
        guard let minor = Self.minorVersion(parts[2]) else { return .failure(.badRequest("malformed HTTP version")) }
        guard minor >= 0 else { return .failure(.versionNotSupported) }
        let target = String(decoding: parts[1], as: UTF8.self)
        // Origin form only ("/path?query"); absolute and authority forms are for proxies.
        guard target.hasPrefix("/") else { return .failure(.badRequest("request target must start with /")) }
        return .success((String(decoding: parts[0], as: UTF8.self), target, minor))
    }

    /// The minor version of `HTTP/1.0` and `HTTP/1.1` (0, 1); -1 for any other
    /// well-formed version (`HTTP/` DIGIT+ [`.` DIGIT+]); nil for a malformed one.
    static func minorVersion(_ version: ArraySlice<UInt8>) -> Int? {
        let prefix = Array("HTTP/".utf8)
        guard version.starts(with: prefix) else { return nil }
        let numbers = version.dropFirst(prefix.count).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        func isNumber(_ s: ArraySlice<UInt8>) -> Bool { !s.isEmpty && s.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard numbers.count <= 2, numbers.allSatisfy(isNumber) else { return nil }
        guard numbers.count == 2, Array(numbers[0]) == [UInt8(ascii: "1")] else { return -1 }
        switch Array(numbers[1]) {
        case [UInt8(ascii: "0")]: return 0
        case [UInt8(ascii: "1")]: return 1
        default: return -1
        }
    }

    static func parseField(_ line: ArraySlice<UInt8>) -> Result<(String, String), HTTPError> {
        // Obsolete line folding (RFC 9112 §5.2) and whitespace before the colon are refused.
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
            return .failure(.badRequest("malformed header field"))
        }
        let value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(.badRequest("control character in a header field"))
        }
        return .success((String(decoding: line[line.startIndex..<colon], as: UTF8.self),
                         String(decoding: value, as: UTF8.self).trimmingHTTPWhitespace()))
    }
}
