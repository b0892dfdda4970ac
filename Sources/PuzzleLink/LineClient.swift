import PuzzleProtocol
import PuzzleSystem

/// A request-reply client with deadlines (never sleeps): sends lines, waits for
/// the reply to each, and keeps the events that arrive meanwhile. The tests'
/// client and the bench's set-up connection.
public final class LineClient {
    /// Why a wait ended without the line it wanted.
    public struct Timeout: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let connection: LineConnection
    /// For socket options and half-closes. Never close it directly: the
    /// connection closes it again when it goes, and between the two closes
    /// another thread may have been given the same descriptor number. `close()`.
    public var socket: Socket { connection.socket }
    private let queue: EpollQueue
    private var ready: [String] = []
    /// Index of the next unread line in `ready` (removing from the front would be quadratic).
    private var readyHead = 0
    /// Event lines put aside while waiting for replies.
    public var events: [String] = []
    public private(set) var closed = false
    /// Names this client in timeout messages.
    public let name: String

    public init(port: Int, name: String = "client", host: String = "127.0.0.1") throws {
        self.name = name
        connection = try LineConnection(host: host, port: UInt16(port), timeoutMillis: 5000, maxLineLength: 1 << 22)
        queue = try EpollQueue()
        try queue.register(connection.socket.descriptor, interest: .readable, token: 1)
    }

    /// Closes the connection (once; the client's end also closes it).
    public func close() {
        connection.close()
        closed = true
    }

    /// Sends a line as typed (a test may send what no `Request` encodes).
    public func send(_ line: String) throws { try sendRaw(Array((line + "\n").utf8)) }

    /// Sends a request, written by `Request.encode(into:)`.
    public func send(_ request: Request) throws {
        var bytes: [UInt8] = []
        request.encode(into: &bytes)
        try sendRaw(bytes)
    }

    /// Sends bytes as they are, waiting (up to `seconds`) while the socket is full.
    public func sendRaw(_ bytes: [UInt8], deadline seconds: Double = 10) throws {
        connection.enqueue(bytes: bytes)
        let end = Self.deadline(seconds)
        while true {
            try connection.flush()
            guard connection.hasPendingOutput else { return }
            guard MonotonicClock.nowMilliseconds < end else { throw Timeout(description: "\(name): send blocked") }
            let writable = try EpollQueue()
            try writable.register(connection.socket.descriptor, interest: .writable, token: 1)
            _ = try writable.wait(timeoutMillis: 100)
        }
    }

    /// The next line from the server; throws on timeout or when the server closes.
    public func nextLine(timeout: Double = 10) throws -> String {
        let end = Self.deadline(timeout)
        while readyHead == ready.count {
            guard !closed else { throw Timeout(description: "\(name): connection closed while waiting for a line") }
            let left = end - MonotonicClock.nowMilliseconds
            guard left > 0 else { throw Timeout(description: "\(name): no line within \(timeout) s") }
            _ = try queue.wait(timeoutMillis: Int32(min(left, 1000)) + 1)
            pump()
        }
        let line = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count { ready.removeAll(keepingCapacity: true); readyHead = 0 }
        return line
    }

    /// Reads whatever has arrived, without waiting.
    public func pump() {
        while !closed {
            let result = connection.read()
            ready += result.lines
            if result.closed { closed = true }
            if result.lines.isEmpty { return }
        }
    }

    /// Sends a request and returns its reply line, with the `S` lines before it.
    /// Event lines that arrive meanwhile are kept in `events`.
    @discardableResult
    public func request(_ line: String, timeout: Double = 10) throws -> (reply: String, state: [String]) {
        try send(line)
        return try awaitReply(timeout: timeout)
    }

    /// Sends a request and returns its reply line, with the `S` lines before it.
    @discardableResult
    public func request(_ request: Request, timeout: Double = 10) throws -> (reply: String, state: [String]) {
        try send(request)
        return try awaitReply(timeout: timeout)
    }

    /// The next reply (or `BYE`) line, with the `S` lines before it.
    public func awaitReply(timeout: Double = 10) throws -> (reply: String, state: [String]) {
        var state: [String] = []
        while true {
            let l = try nextLine(timeout: timeout)
            switch ServerLine.classify(Substring(l)) {
            case .event: events.append(l)
            case .state: state.append(l)
            default: return (l, state)
            }
        }
    }

    /// Waits for an event line satisfying `match` (looking at kept events first).
    @discardableResult
    public func waitForEvent(timeout: Double = 10, _ match: (String) -> Bool) throws -> String {
        if let i = events.firstIndex(where: match) { return events.remove(at: i) }
        let end = Self.deadline(timeout)
        while true {
            let left = end - MonotonicClock.nowMilliseconds
            guard left > 0 else { throw Timeout(description: "\(name): expected event not seen; kept: \(events.suffix(5))") }
            let l = try nextLine(timeout: Double(left) / 1000)
            if match(l) { return l }
            if case .event = ServerLine.classify(Substring(l)) { events.append(l) }
        }
    }

    /// Waits until the server closes the connection; returns the lines seen before.
    public func waitForClose(timeout: Double = 10) throws -> [String] {
        var seen: [String] = []
        let end = Self.deadline(timeout)
        while true {
            do {
                seen.append(try nextLine(timeout: max(0.01, Double(end - MonotonicClock.nowMilliseconds) / 1000)))
            } catch {
                if closed && readyHead == ready.count { return seen }
                throw error
            }
        }
    }

    /// HELLO; returns the player id.
    public func hello(_ name: String) throws -> Int {
        let r = try request(.hello(version: 1, name: name)).reply
        guard case .hello(_, let id, _, _)? = ReplyCodec.decode(r[...]) else {
            throw Timeout(description: "HELLO refused: \(r)")
        }
        return id.rawValue
    }

    /// HELLO and JOIN; returns the player id.
    @discardableResult
    public func enter(_ room: String = "lobby", as name: String, password: String? = nil) throws -> Int {
        let id = try hello(name)
        let r = try request(.join(room: room, password: password)).reply
        guard case .joined? = ReplyCodec.decode(r[...]) else { throw Timeout(description: "JOIN refused: \(r)") }
        return id
    }

    private static func deadline(_ seconds: Double) -> Int64 {
        MonotonicClock.nowMilliseconds + Int64(seconds * 1000)
    }
}
