import PuzzleProtocol
import PuzzleWeb

/// Why the server ends a connection on purpose, and what that means: the
/// line it is sent, how its player leaves its room, what the log says. Every
/// goodbye to a connection goes through `PuzzleServer.sayGoodbye`, once per
/// connection; one refused at accept (`full`, `shutdown`) is sent its line
/// before it ever becomes one.
enum Goodbye: Equatable {
    /// Over `max_connections` or `max_connections_per_address`: `BYE FULL <why>`, at accept.
    case full(String)
    /// QUIT (or BYE, EXIT): its reply, `OK bye`, is the goodbye.
    case quit
    /// A browser connection ended: an HTTP one after its last response, or
    /// a WebSocket after a close frame (`closeFrame`, queued after everything
    /// else; nil for HTTP). No line.
    case web(String, closeFrame: [UInt8]?)
    /// No request for `seconds`: `BYE IDLE ...`.
    case idle(seconds: Int)
    /// The server is stopping: `BYE SHUTDOWN ...`.
    case shutdown
    /// The same player said HELLO 2 with its token on another connection: `BYE RESUMED ...`.
    case resumed
    /// The peer ended its side without QUIT, and everything it sent was answered: no line.
    case peerEnded
    /// The reader fell too far behind: `BYE SLOW <why>`, sent past its full
    /// queue, then an abortive close (the kernel's unsent bytes are dropped).
    case slow(String)

    /// The `BYE` line the connection is sent (QUIT's is its reply); nil for none.
    var wire: WireGoodbye? {
        switch self {
        case .full(let why): .full(why)
        case .idle(let seconds): .idle(seconds: seconds)
        case .shutdown: .shutdown
        case .resumed: .resumed
        case .slow(let why): .slow(why)
        case .quit, .web, .peerEnded: nil
        }
    }

    /// The line the connection is sent, with its terminator, through the
    /// protocol's codecs; empty for none.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        if case .quit = self { ReplyCodec.encode(.bye, into: &out) }
        wire?.encode(into: &out)
        return out
    }

    /// Whether the player leaves its room at once (its holds go back), rather
    /// than drop from it: a version 2 player whose link is lost (or taken over,
    /// or too slow) stays a while for a reconnect (`dropFromRoom`).
    var leavesRoom: Bool {
        switch self {
        case .full, .quit, .idle, .shutdown: true
        // A browser tab closed or reloaded: its player may come back.
        case .resumed, .peerEnded, .slow, .web: false
        }
    }

    /// The close frame a WebSocket is sent after the goodbye's line.
    var closeCode: WebSocketCloseCode {
        switch self {
        case .shutdown: .goingAway
        case .slow, .full: .policyViolation
        case .quit, .idle, .resumed, .peerEnded, .web: .normal
        }
    }

    /// For the log line that says why the connection closed.
    var reason: String {
        switch self {
        case .full: "full"
        case .quit: "quit"
        case .web(let why, _): why
        case .idle: "idle"
        case .shutdown: "shutdown"
        case .resumed: "resumed elsewhere"
        case .peerEnded: "peer closed"
        case .slow: "slow reader"
        }
    }
}
