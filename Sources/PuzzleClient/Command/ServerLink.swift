import PuzzleLink
import PuzzleProtocol
import PuzzleSystem

/// One connection to the server, pumped the same way by both drivers (the full screen and
/// plain mode): requests written in order and flushed, the socket watched for writing only
/// while output waits, received bytes read as lines.
public final class ServerLink {
    let connection: LineConnection
    private let queue: EpollQueue
    private let token: UInt64
    private var watchingWrite = false
    private var watchingRead = true

    /// Registers `connection` (already connected) with `queue` under `token` (readable).
    public init(connection: LineConnection, queue: EpollQueue, token: UInt64) throws {
        self.connection = connection
        self.queue = queue
        self.token = token
        try queue.register(connection.socket.descriptor, interest: .readable, token: token)
    }

    /// Connects and registers the socket with `queue` under `token` (readable).
    init(options: PlayOptions, timeoutMillis: Int32, queue: EpollQueue, token: UInt64) throws {
        connection = try LineConnection(host: options.host, port: options.port, timeoutMillis: timeoutMillis, maxLineLength: 1 << 16)
        self.queue = queue
        self.token = token
        do { try queue.register(connection.socket.descriptor, interest: .readable, token: token) } catch {
            connection.close()
            throw error
        }
    }

    /// Writes `requests` (and what still waited) as far as the socket takes them; throws when
    /// the link is gone. A registration that cannot follow is a lost link too: a socket not
    /// watched for writing would never send the rest.
    public func send(_ requests: [Request]) throws {
        for request in requests { connection.enqueue(request) }
        try connection.flush()
        if connection.hasPendingOutput != watchingWrite {
            watchingWrite.toggle()
            try updateInterest()
        }
    }

    /// Whether the socket is watched for lines to read: a driver that reads
    /// in batches (the telnet gateway, between frames) stops watching it
    /// meanwhile, and what arrives waits in the socket.
    public func watchReading(_ watch: Bool) throws {
        guard watch != watchingRead else { return }
        watchingRead = watch
        try updateInterest()
    }

    private func updateInterest() throws {
        var interest: Interest = []
        if watchingRead { interest.insert(.readable) }
        if watchingWrite { interest.insert(.writable) }
        try queue.modify(connection.socket.descriptor, interest: interest, token: token)
    }

    /// What arrived: whole lines, and whether the server closed.
    public func read() -> LineConnection.ReadResult { connection.read() }

    /// Stops watching the socket and closes it.
    public func close() {
        try? queue.deregister(connection.socket.descriptor)
        connection.close()
    }
}
