import Foundation
import PuzzleProtocol
import PuzzleSystem

public struct TestTimeout: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// A protocol client for tests: sends lines, and waits for expected lines with a
/// deadline (never sleeps). Events seen while waiting for a reply are kept.
public final class TestClient {
    public let socket: Socket
    private let queue: EpollQueue
    private var framer = LineFramer(maxLineLength: 1 << 22)
    private var ready: [String] = []
    /// Index of the next unread line in `ready` (removing from the front would be quadratic).
    private var readyHead = 0
    /// Event lines put aside while waiting for replies.
    public var events: [String] = []
    public private(set) var closed = false
    public let name: String

    public init(port: Int, name: String = "client", host: String = "127.0.0.1") throws {
        self.name = name
        socket = try Socket.connect(host: host, port: UInt16(port), timeoutMillis: 5000)
        try socket.setNoDelay(true)
        queue = try EpollQueue()
        try queue.register(socket.descriptor, interest: .readable, token: 1)
    }

    deinit { try? socket.close() }

    public func send(_ line: String) throws { try sendRaw(Array((line + "\n").utf8)) }

    public func sendRaw(_ bytes: [UInt8], deadline seconds: Double = 10) throws {
        var offset = 0
        let end = Date().addingTimeInterval(seconds)
        while offset < bytes.count {
            let r = try bytes[offset...].withUnsafeBytes { (b) throws(Errno) -> IOResult in try socket.send(b) }
            if case .processed(let n) = r { offset += n; continue }
            guard Date() < end else { throw TestTimeout(description: "\(name): send blocked") }
            let w = try EpollQueue()
            try w.register(socket.descriptor, interest: .writable, token: 1)
            _ = try w.wait(timeoutMillis: 100)
        }
    }

    /// The next line from the server; throws on timeout or when the server closes.
    public func nextLine(timeout: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while readyHead == ready.count {
            guard !closed else { throw TestTimeout(description: "\(name): connection closed while waiting for a line") }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestTimeout(description: "\(name): no line within \(timeout) s") }
            _ = try queue.wait(timeoutMillis: Int32(min(left, 1) * 1000) + 1)
            try pump()
        }
        let line = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count { ready.removeAll(keepingCapacity: true); readyHead = 0 }
        return line
    }

    /// Reads whatever has arrived, without waiting.
    public func pump() throws {
        while true {
            var chunk: [UInt8] = []
            let r: IOResult
            do { r = try socket.receive(appendingTo: &chunk) } catch { closed = true; return }
            switch r {
            case .wouldBlock: return
            case .processed(0): closed = true; return
            case .processed:
                framer.append(chunk)
                while let f = framer.next() {
                    if case .line(let bytes) = f { ready.append(String(decoding: bytes, as: UTF8.self)) }
                }
            }
        }
    }

    /// Sends a request and returns its reply line, with the `S` lines before it.
    /// Event lines that arrive meanwhile are kept in `events`.
    @discardableResult
    public func request(_ line: String, timeout: Double = 10) throws -> (reply: String, state: [String]) {
        try send(line)
        return try awaitReply(timeout: timeout)
    }

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
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestTimeout(description: "\(name): expected event not seen; kept: \(events.suffix(5))") }
            let l = try nextLine(timeout: left)
            if match(l) { return l }
            if l.hasPrefix("EV ") { events.append(l) }
        }
    }

    /// Waits until the server closes the connection; returns the lines seen before.
    public func waitForClose(timeout: Double = 10) throws -> [String] {
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                seen.append(try nextLine(timeout: max(0.01, deadline.timeIntervalSinceNow)))
            } catch {
                if closed && readyHead == ready.count { return seen }
                throw error
            }
        }
    }

    public func hello(_ name: String) throws -> Int {
        let r = try request("HELLO 1 \(name)").reply
        guard r.hasPrefix("OK hello"), let id = replyFields(r)["id"].flatMap(Int.init) else {
            throw TestTimeout(description: "HELLO refused: \(r)")
        }
        return id
    }

    /// HELLO and JOIN; returns the player id.
    @discardableResult
    public func enter(_ room: String = "lobby", as name: String, password: String? = nil) throws -> Int {
        let id = try hello(name)
        let r = try request("JOIN \(room)" + (password.map { " \($0)" } ?? "")).reply
        guard r.hasPrefix("OK joined") else { throw TestTimeout(description: "JOIN refused: \(r)") }
        return id
    }
}
