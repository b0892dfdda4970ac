import PuzzleProtocol
import PuzzleSystem

/// One TCP connection to a server: requests out as lines, server lines in.
/// Non-blocking; the runner's event loop decides when to read and flush.
final class ClientConnection {
    let socket: Socket
    private var framer = LineFramer(maxLineLength: 1 << 16)
    private var output: [UInt8] = []
    private var outputOffset = 0
    /// The server closed its side (or the socket failed).
    private(set) var peerClosed = false
    private var descriptorClosed = false

    /// Connects (waiting at most `timeoutMillis`).
    init(host: String, port: UInt16, timeoutMillis: Int32) throws(Errno) {
        socket = try Socket.connect(host: host, port: port, timeoutMillis: timeoutMillis)
        try? socket.setNoDelay(true)
    }

    /// Queues a request line.
    func enqueue(_ request: Request) {
        output.append(contentsOf: request.line.utf8)
        output.append(UInt8(ascii: "\n"))
    }

    /// Whether queued bytes wait for the socket to become writable.
    var hasPendingOutput: Bool { outputOffset < output.count }

    /// Writes what the socket accepts now.
    func flush() throws(Errno) {
        while outputOffset < output.count {
            let result = try output[outputOffset...].withUnsafeBytes { b in
                Result { () throws(Errno) in try socket.send(b) }
            }.get()
            guard case .processed(let n) = result, n > 0 else { break }
            outputOffset += n
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        }
    }

    /// What one read brought.
    struct ReadResult {
        var lines: [String] = []
        /// The server closed the connection (after `lines`).
        var closed = false
    }

    /// Reads everything available now and splits it into lines.
    func read() -> ReadResult {
        var result = ReadResult()
        var chunk: [UInt8] = []
        for _ in 0..<64 {
            chunk.removeAll(keepingCapacity: true)
            let r: IOResult
            do { r = try socket.receive(appendingTo: &chunk) } catch {
                result.closed = true
                break
            }
            guard case .processed(let n) = r else { break }
            if n == 0 {
                result.closed = true
                break
            }
            framer.append(chunk)
            while let frame = framer.next() {
                if case .line(let bytes) = frame { result.lines.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
        if result.closed { peerClosed = true }
        return result
    }

    /// Closes the socket (once).
    func close() {
        guard !descriptorClosed else { return }
        descriptorClosed = true
        try? socket.close()
    }

    deinit { close() }
}
