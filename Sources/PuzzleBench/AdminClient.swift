import PuzzleProtocol
import PuzzleSystem

/// A plain request-reply connection for set-up and statistics (CREATE,
/// STATS), outside the bots' loop. Waits for each reply with a deadline.
final class AdminClient {
    private let socket: Socket
    private let queue: EpollQueue
    private var framer = LineFramer(maxLineLength: 1 << 20)

    init(host: String, port: UInt16) throws {
        socket = try Socket.connect(host: host, port: port, timeoutMillis: 5000)
        queue = try EpollQueue(maxEventsPerWait: 4)
        try queue.register(socket.descriptor, interest: .readable, token: 0)
    }

    deinit { try? socket.close() }

    /// Sends one request and returns its reply line (skipping state and event lines).
    func request(_ line: String, timeoutMillis: Int64 = 10_000) throws -> String {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var sent = 0
        let deadline = MonotonicClock.nowMilliseconds + timeoutMillis
        while sent < bytes.count {
            let r = try bytes.withUnsafeBytes { (b) throws(Errno) -> IOResult in try socket.send(UnsafeRawBufferPointer(rebasing: b[sent...])) }
            sent += r.byteCount
            guard MonotonicClock.nowMilliseconds < deadline else { throw BenchFailure("admin: cannot send '\(line)'") }
        }
        while true {
            while let frame = framer.next() {
                guard case .line(let l) = frame else { continue }
                let text = String(decoding: l, as: UTF8.self)
                if ServerLine.classify(Substring(text)).isReply { return text }
                if text.hasPrefix("BYE") { throw BenchFailure("admin: server said \(text)") }
            }
            let left = deadline - MonotonicClock.nowMilliseconds
            guard left > 0 else { throw BenchFailure("admin: no reply to '\(line)'") }
            _ = try queue.wait(timeoutMillis: Int32(min(left, 1000)))
            var chunk: [UInt8] = []
            switch try socket.receive(appendingTo: &chunk) {
            case .processed(0): throw BenchFailure("admin: server closed the connection")
            case .processed: framer.append(chunk)
            case .wouldBlock: continue
            }
        }
    }
}
