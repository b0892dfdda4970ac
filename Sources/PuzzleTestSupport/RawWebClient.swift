import PuzzleSystem
import PuzzleWeb

/// A client that speaks bytes, for tests of the server's HTTP and WebSocket
/// side: it sends exactly what a test gives it (byte by byte if asked), and
/// reads responses and frames with deadlines, never sleeping.
public final class RawWebClient {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A response as read off the wire.
    public struct Response {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: [UInt8]
        /// The status line and header fields exactly as sent, through the
        /// blank line (for byte-for-byte checks).
        public var head: String = ""
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let port: Int
    private let socket: Socket
    private let queue: EpollQueue
    private var buffer: [UInt8] = []
    public private(set) var closed = false

    public init(port: Int) throws {
        self.port = port
        socket = try Socket.connect(host: "127.0.0.1", port: UInt16(port), timeoutMillis: 5000)
        queue = try EpollQueue()
        try queue.register(socket.descriptor, interest: .readable, token: 1)
    }

    deinit { try? socket.close() }

    /// Shrinks the socket's receive buffer (a slow reader fills it sooner).
    public func setReceiveBufferSize(_ bytes: Int) throws {
        try socket.setReceiveBufferSize(bytes)
    }

    /// Sends bytes, all at once or one `send` per byte.
    public func send(_ bytes: [UInt8], byteByByte: Bool = false) throws {
        if byteByByte {
            for b in bytes { try sendAll([b]) }
        } else {
            try sendAll(bytes)
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Shuts down the sending side: the server sees the end of the stream
    /// after everything sent (a half-close), and may still answer.
    public func endSending() throws {
        try socket.shutdown(.write)
    }

    private func sendAll(_ bytes: [UInt8]) throws {
        var offset = 0
        let end = MonotonicClock.nowMilliseconds + 10_000
        while offset < bytes.count {
            let result = try bytes.withUnsafeBytes { try socket.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if case .processed(let n) = result { offset += n; continue }
            guard MonotonicClock.nowMilliseconds < end else { throw Failure(description: "send blocked") }
            let writable = try EpollQueue()
            try writable.register(socket.descriptor, interest: .writable, token: 1)
            _ = try writable.wait(timeoutMillis: 100)
        }
    }

    /// Reads until `enough` says the buffer holds what is wanted (it returns
    /// how many bytes to take), the peer closes, or the deadline passes.
    private func read<T>(timeout: Double, _ what: String, _ enough: ([UInt8]) -> (T, Int)?) throws -> T {
        let end = MonotonicClock.nowMilliseconds + Int64(timeout * 1000)
        while true {
            if let (value, used) = enough(buffer) {
                buffer.removeFirst(used)
                return value
            }
            guard !closed else { throw Failure(description: "closed while waiting for \(what); have \(buffer.count) bytes") }
            let left = end - MonotonicClock.nowMilliseconds
            guard left > 0 else { throw Failure(description: "no \(what) within \(timeout) s; have \(String(decoding: buffer.prefix(200), as: UTF8.self))") }
            _ = try queue.wait(timeoutMillis: Int32(min(left, 1000)))
            fill()
        }
    }

    private func fill() {
        while !closed {
            do {
                switch try socket.receive(appendingTo: &buffer) {
                case .wouldBlock: return
                case .processed(0): closed = true
                case .processed: continue
                }
            } catch {
                closed = true
            }
        }
    }

    /// The next HTTP response (its body by `Content-Length`; none for 101,
    /// 304, or when `head` says it answers a HEAD request).
    public func response(head: Bool = false, timeout: Double = 10) throws -> Response {
        try read(timeout: timeout, "HTTP response") { bytes -> (Response, Int)? in
            guard let end = Self.find([13, 10, 13, 10], in: bytes) else { return nil }
            let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            let parts = lines[0].split(separator: " ", maxSplits: 2)
            let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            var headers = HTTPHeaders()
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
            }
            let length = (head || status == 101 || status == 304) ? 0 : Int(headers["Content-Length"] ?? "0") ?? 0
            let bodyStart = end + 4
            guard bytes.count >= bodyStart + length else { return nil }
            var response = Response(status: status, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length]))
            response.head = String(decoding: bytes[..<bodyStart], as: UTF8.self)
            return (response, bodyStart + length)
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<i + needle.count]) == needle {
            return i
        }
        return nil
    }

    /// A GET request for `path`, with extra header lines.
    public static func get(_ path: String, method: String = "GET", port: Int, headers: [String] = []) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    /// Sends a WebSocket upgrade for `/ws` and returns the response.
    public func upgrade(origin: String? = nil, key: String = "dGhlIHNhbXBsZSBub25jZQ==") throws -> Response {
        var headers = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13"]
        if let origin { headers.append("Origin: \(origin)") }
        try send(Self.get("/ws", port: port, headers: headers))
        return try response()
    }

    /// A masked client frame.
    public static func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        WebSocketFrame(fin: fin, opcode: opcode, payload: payload).encoded(mask: (0x12, 0x34, 0x56, 0x78))
    }

    /// Sends one line as a text message.
    public func sendLine(_ line: String, byteByByte: Bool = false) throws {
        try send(Self.frame(.text, Array(line.utf8)), byteByByte: byteByByte)
    }

    /// The next frame from the server (which must be unmasked).
    public func frame(timeout: Double = 10) throws -> WebSocketFrame {
        try read(timeout: timeout, "WebSocket frame") { b -> (WebSocketFrame, Int)? in
            guard b.count >= 2 else { return nil }
            var length = Int(b[1] & 0x7F), header = 2
            if length == 126 {
                guard b.count >= 4 else { return nil }
                length = Int(b[2]) << 8 | Int(b[3]); header = 4
            } else if length == 127 {
                guard b.count >= 10 else { return nil }
                length = 0
                for i in 2..<10 { length = length << 8 | Int(b[i]) }
                header = 10
            }
            guard b.count >= header + length, let opcode = WebSocketOpcode(rawValue: b[0] & 0x0F) else { return nil }
            return (WebSocketFrame(fin: b[0] & 0x80 != 0, opcode: opcode, payload: Array(b[header..<header + length])), header + length)
        }
    }

    /// The next text message that starts with `prefix`; other text messages
    /// are skipped (events), control frames too unless `controls` collects them.
    public func line(startingWith prefix: String, timeout: Double = 10) throws -> String {
        let end = MonotonicClock.nowMilliseconds + Int64(timeout * 1000)
        while true {
            let left = Double(end - MonotonicClock.nowMilliseconds) / 1000
            guard left > 0 else { throw Failure(description: "no message starting with \(prefix)") }
            let f = try frame(timeout: left)
            if f.opcode == .close { throw Failure(description: "closed (\(f.payload)) while waiting for \(prefix)") }
            guard f.opcode == .text else { continue }
            let text = String(decoding: f.payload, as: UTF8.self)
            if text.hasPrefix(prefix) { return text }
        }
    }

    /// Every text message up to and including the first that starts with `prefix`.
    public func lines(through prefix: String, timeout: Double = 10) throws -> [String] {
        var seen: [String] = []
        let end = MonotonicClock.nowMilliseconds + Int64(timeout * 1000)
        while true {
            let left = Double(end - MonotonicClock.nowMilliseconds) / 1000
            guard left > 0 else { throw Failure(description: "no message starting with \(prefix)") }
            let f = try frame(timeout: left)
            guard f.opcode == .text else { continue }
            seen.append(String(decoding: f.payload, as: UTF8.self))
            if seen.last!.hasPrefix(prefix) { return seen }
        }
    }

    /// Waits for the server to close the TCP connection; returns what came before.
    public func waitForClose(timeout: Double = 10) throws -> [UInt8] {
        try read(timeout: timeout, "close") { b in self.closed ? (b, b.count) : nil }
    }
}
