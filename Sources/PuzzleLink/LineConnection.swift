import PuzzleProtocol
import PuzzleSystem

/// One TCP connection to a puzzle-room server: request lines out, server lines
/// in. Non-blocking: the owner's event loop decides when to read and flush
/// (the play client), or `LineClient` waits on it with deadlines (tests, the
/// bench's set-up connection).
public final class LineConnection {
    public let socket: Socket
    /// Server lines, framed where each read put them.
    private var incoming: LineFramer
    /// Where the socket's bytes are read to (lines cut between reads are
    /// kept by the framer): received bytes are copied twice in all, into
    /// this buffer and from it into each line's `String`.
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var output: [UInt8] = []
    private var outputOffset = 0
    /// The most bytes one read asks the socket for.
    public static let readSize = 64 * 1024

    /// The server closed its side (or the socket failed).
    public private(set) var peerClosed = false
    private var descriptorClosed = false

    /// Connects (waiting at most `timeoutMillis`). Server lines longer than
    /// `maxLineLength` are dropped (`LineFramer`).
    public init(host: String, port: UInt16, timeoutMillis: Int32, maxLineLength: Int = 1 << 20) throws(Errno) {
        socket = try Socket.connect(host: host, port: port, timeoutMillis: timeoutMillis)
        incoming = LineFramer(maxLineLength: maxLineLength)
        readBuffer = .allocate(byteCount: Self.readSize, alignment: 16)
        try? socket.setNoDelay(true)
    }

    /// Speaks the line protocol over a socket already connected to the server (one end
    /// of a socket pair the server reads the other end of: the telnet gateway's link).
    public init(socket: Socket, maxLineLength: Int = 1 << 20) {
        self.socket = socket
        incoming = LineFramer(maxLineLength: maxLineLength)
        readBuffer = .allocate(byteCount: Self.readSize, alignment: 16)
    }

    /// Queues a request.
    public func enqueue(_ request: Request) {
        request.encode(into: &output)
    }

    /// Queues a line as typed (a test may send what no `Request` encodes).
    public func enqueue(line: String) {
        output.append(contentsOf: line.utf8)
        output.append(UInt8(ascii: "\n"))
    }

    /// Queues raw bytes, unframed.
    public func enqueue(bytes: [UInt8]) {
        output.append(contentsOf: bytes)
    }

    /// Whether queued bytes wait for the socket to become writable.
    public var hasPendingOutput: Bool { outputOffset < output.count }

    /// Writes what the socket accepts now.
    public func flush() throws(Errno) {
        // A closed descriptor's number may already belong to someone else.
        guard !descriptorClosed else { throw .badFileDescriptor }
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
    public struct ReadResult {
        public var lines: [String] = []
        /// The server closed the connection (after `lines`).
        public var closed = false
    }

    /// Reads everything available now (bounded, so a fast server cannot keep
    /// the caller here) and splits it into lines.
    public func read() -> ReadResult {
        var result = ReadResult()
        guard !descriptorClosed else {
            result.closed = true
            return result
        }
        for _ in 0..<64 {
            let r: IOResult
            do { r = try socket.receive(into: readBuffer) } catch {
                result.closed = true
                break
            }
            guard case .processed(let n) = r else { break }
            if n == 0 {
                result.closed = true
                break
            }
            incoming.split(UnsafeRawBufferPointer(rebasing: readBuffer[..<n])) { span in
                // An over-long line is dropped whole.
                if case .line(let line) = span { result.lines.append(String(decoding: line, as: UTF8.self)) }
                return true
            }
        }
        if result.closed { peerClosed = true }
        return result
    }

    /// Closes the socket (once).
    public func close() {
        guard !descriptorClosed else { return }
        descriptorClosed = true
        try? socket.close()
    }

    deinit {
        close()
        readBuffer.deallocate()
    }
}
