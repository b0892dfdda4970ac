import PuzzleProtocol
import PuzzleCore
import PuzzleWeb
/// Everything an operator can tune about a running puzzle server.
///
/// `ServerConfig()` is the built-in default; `Config/puzzle.conf` spells out the
/// same values (a test keeps the two equal). A config file and command-line
/// flags are read by ``parse(text:baseDirectory:)``, ``load(path:)`` and
/// ``fromCommandLine(_:defaultConfigPath:)``, each starting from the defaults.
public struct ServerConfig: Equatable, Sendable {
    /// Address to listen on: an IPv4 or IPv6 literal. `0.0.0.0` (the default)
    /// accepts players from the LAN on IPv4; `::` is IPv6 any; `127.0.0.1` keeps
    /// the server private to this machine. Key `bind`.
    public var bind: String
    /// TCP port, 0...65535; 0 lets the system pick a free port (the server logs
    /// which one). Default 7171. Key `port`.
    public var port: Int
    /// Most simultaneous player connections; further ones are refused.
    /// Default 1024. Key `max_connections`.
    public var maxConnections: Int
    /// Most simultaneous connections from one IP address, so that one host
    /// cannot take every slot; 0 = no per-address limit. Default 64.
    /// Key `max_connections_per_address`.
    public var maxConnectionsPerAddress: Int
    /// Longest request line in bytes, newline excluded; a longer line is
    /// answered `ERR LINE_TOO_LONG` and discarded, and the connection stays.
    /// Default 1024. Key `max_line_length`.
    public var maxLineLength: Int
    /// Bytes queued to one reader past which its pending drag events are
    /// coalesced (only the newest position per piece is kept). Default 64 KiB.
    /// Key `output_soft_limit`.
    public var outputSoftLimit: Int
    /// Bytes queued to one reader past which it is disconnected. Must exceed the
    /// soft limit. Default 1 MiB. Key `output_hard_limit`.
    public var outputHardLimit: Int
    /// How long a reader may stay over the soft limit before it is disconnected.
    /// Default 5000 ms. Key `slow_reader_grace_ms`.
    public var slowReaderGraceMillis: Int
    /// Kernel send buffer (SO_SNDBUF) of each connection in bytes; 0 leaves the
    /// kernel's autotuning (which lets one slow reader pin megabytes). A fixed
    /// size keeps a slow reader's backlog in the server's own queue, where it is
    /// coalesced and bounded. Default 256 KiB. Key `socket_send_buffer`.
    public var socketSendBuffer: Int
    /// Seconds without a request after which a connection is closed; 0 = never.
    /// Default 300. Key `idle_timeout_seconds`.
    public var idleTimeoutSeconds: Int
    /// How long a browser may take to send an HTTP request head, from its
    /// first byte to its blank line; a slower sender is answered 408 and
    /// dropped. Default 10000 ms. Key `http_header_timeout_ms`.
    public var httpHeaderTimeoutMillis: Int
    /// Milliseconds without a byte from a WebSocket peer after which the
    /// server pings it, so that proxies and NAT keep an idle link open;
    /// 0 = never. Default 30000. Key `websocket_ping_ms`.
    public var webSocketPingMillis: Int
    /// Which pages may open a WebSocket to the server: `same` (the page's
    /// origin is the address the request was sent to: the server's own
    /// page), `any`, or a list of origins. Default `same`. Key `web_origins`.
    public var webOrigins: WebSocketOriginPolicy
    /// Seconds a player may stay absent from a room (left, not away) before
    /// the room forgets it (its record goes, its moves stay in the room's
    /// totals); 0 = never. Default 30 days. Key `forget_absent_seconds`.
    public var forgetAbsentSeconds: Int
    /// Seconds a room that players created may stay empty before it is closed
    /// and its files removed (configured rooms never are); 0 = never.
    /// Default 7 days. Key `idle_room_seconds`.
    public var idleRoomSeconds: Int
    /// Solved puzzles' replays each room keeps on disk, the oldest deleted
    /// first; 0 keeps none. Default 20. Key `replays_kept`.
    public var replaysKept = 20
    /// MiB all rooms' rejoin rings (`RecentEvents`: the events a client
    /// coming back catches up with) may hold together; over it, the
    /// quietest rooms' rings are let go (their returners get a snapshot).
    /// 0 = no cap. Default 64 MiB. Key `rejoin_memory_mb` (in MiB; tests set
    /// bytes here).
    public var rejoinMemoryBytes = 64 << 20
    /// Moves one REPLAY reply sends at most (the rest come with `REPLAY
    /// <puzzle> <from>`), so that a reply stays well under the output
    /// queue's hard limit. Not a config key: tests make pages small.
    public var replayPageMoves = 8192
    /// How long a grabbed piece stays locked to its holder without a drag or drop
    /// before the lease expires and the piece goes back. Default 30000 ms. Key `lease_ms`.
    public var leaseMillis: Int
    /// How long a hint (the whole picture) is shown. Default 2000 ms. Key `hint_ms`.
    public var hintMillis: Int
    /// Pieces one player may hold at once. Default 1. Key `max_held_pieces`.
    public var maxHeldPieces: Int
    /// Drag messages accepted per second per connection; extra ones are dropped.
    /// 0 = unlimited. Default 200. Key `drag_rate_limit`.
    public var dragRateLimit: Int
    /// Chat lines (SAY) accepted per second per connection, after a burst of
    /// ``chatBurst``; a client over it is paced: its further requests wait
    /// (unread) until the next line is allowed. 0 = unlimited. Default 2.
    /// Key `chat_rate_limit`.
    public var chatRateLimit: Int
    /// Chat lines a connection may send at once before ``chatRateLimit``
    /// paces it. Default 10. Key `chat_burst`.
    public var chatBurst: Int
    /// Wrong room passwords one IP address may try at full speed. Default 5.
    /// Key `password_free_attempts`.
    public var passwordFreeAttempts: Int
    /// Once an address has used its free attempts, one more password check is
    /// allowed per this many milliseconds (its JOINs to rooms with a password
    /// wait, unread, until then). 0 = no limit. Default 1000. Key `password_retry_ms`.
    public var passwordRetryMillis: Int
    /// Directory for journals and snapshots. A relative path is relative to the
    /// server's working directory (not to the config file). Default `./puzzle-data`.
    /// Key `data_directory`.
    public var dataDirectory: String
    /// When the journal is flushed to disk; see ``FsyncPolicy``. Default `batch`. Key `fsync`.
    public var fsync: FsyncPolicy
    /// Journal records written between two snapshots of a room. Default 1000.
    /// Key `snapshot_every`.
    public var snapshotEvery: Int
    /// Least important log lines written. Default `info`. Key `log_level`.
    public var logLevel: LogLevel
    /// Seed of the generator that lays out new rooms; nil (`random`, the
    /// default) seeds from the system. A fixed seed makes layouts repeatable
    /// (tests). Key `seed`.
    public var seed: UInt64?
    /// Rooms opened at start-up. Default: one room, ``defaultRoom``. Key `room`
    /// (repeatable); any `room` line replaces the default list.
    public var rooms: [RoomSpec]
    /// Picture files by name, from `picture = NAME PATH` lines (repeatable). Paths
    /// are stored resolved against the config file's directory. Default: none
    /// (only built-in pictures).
    public var pictures: [String: String]
    /// A folder whose every PNG, JPEG and PPM file is offered as a picture
    /// named by its file name without the extension (a name that breaks the
    /// name rule, a damaged file or one a `picture` line already names is
    /// skipped with a warning). Resolved against the config file's directory.
    /// Default: none. Key `picture_folder`, flag `--pictures`.
    public var pictureFolder: String? = nil
    /// Largest picture file read, in bytes. Default 32 MiB. Key `picture_max_bytes`.
    public var pictureMaxBytes = 32 * 1024 * 1024
    /// Largest picture decoded, in pixels (checked in the file's header,
    /// before decoding). Default 67108864 (64 Mpx). Key `picture_max_pixels`.
    public var pictureMaxPixels = 64 * 1024 * 1024
    /// Whether players may upload pictures of their own (`UPLOAD`); off
    /// refuses every upload with `UPLOADS_OFF` (pictures uploaded before stay
    /// usable). Default on. Key `uploads`, flag `--uploads`.
    public var uploads = true
    /// Largest uploaded picture, in bytes; never more than
    /// ``pictureMaxBytes`` (the smaller one applies). Default 10 MiB.
    /// Key `upload_max_bytes`.
    public var uploadMaxBytes = 10 * 1024 * 1024
    /// Uploads one IP address may start an hour (all at once, then one every
    /// 3600/N s); 0 = no limit. Default 20. Key `uploads_per_hour`.
    public var uploadsPerHour = 20
    /// Rooms one IP address may create an hour (all at once, then one every
    /// 3600/N s); past it `CREATE` is refused with `RATE_LIMITED`; 0 = no
    /// limit. Default 60. Key `creates_per_hour`.
    public var createsPerHour = 60
    /// Most uploaded pictures the server keeps (each is up to
    /// ``uploadMaxBytes`` on disk and a copy of at most 512×512 pixels in
    /// memory); past it uploads are refused (`UPLOADS_FULL`). Default 100.
    /// Key `upload_max_count`.
    public var uploadMaxCount = 100

    /// The telnet port (`telnet HOST PORT` plays the full-screen game with nothing
    /// installed): `auto` (the default) is the game port + 1, or a free port when the
    /// game port is 0; `off` offers none. It listens on ``bind``. Key `telnet_port`,
    /// flag `--telnet-port`.
    public var telnetPort: TelnetPortSetting = .auto
    /// Most telnet sessions at once; further telnet clients are told so and closed.
    /// Each also counts as a connection from its address (``maxConnectionsPerAddress``).
    /// Default 64. Key `telnet_max_sessions`, flag `--telnet-max`.
    public var telnetMaxSessions = 64

    /// The port the telnet gateway listens on, or nil when it is off.
    public var telnetListenPort: Int? {
        switch telnetPort {
        case .off: return nil
        case .auto: return port == 0 ? 0 : port + 1
        case .port(let p): return p
        }
    }

    /// The largest upload taken: `upload_max_bytes`, bounded by `picture_max_bytes`.
    public var effectiveUploadMaxBytes: Int { min(uploadMaxBytes, pictureMaxBytes) }

    /// The room a server gets when the config names none: `lobby jigsaw 4x4`,
    /// picture `sunset`, no rotation, no password.
    public static let defaultRoom = RoomSpec(
        name: "lobby", kind: .jigsaw, rows: 4, cols: 4, picture: PuzzleSpec.defaultPicture, rotation: false, password: nil)

    public init(
        bind: String = "0.0.0.0",
        port: Int = 7171,
        maxConnections: Int = 1024,
        maxConnectionsPerAddress: Int = 64,
        maxLineLength: Int = 1024,
        outputSoftLimit: Int = 64 * 1024,
        outputHardLimit: Int = 1024 * 1024,
        slowReaderGraceMillis: Int = 5000,
        socketSendBuffer: Int = 256 * 1024,
        idleTimeoutSeconds: Int = 300,
        httpHeaderTimeoutMillis: Int = 10_000,
        webSocketPingMillis: Int = 30_000,
        webOrigins: WebSocketOriginPolicy = .sameHost,
        forgetAbsentSeconds: Int = 2_592_000,
        idleRoomSeconds: Int = 604_800,
        leaseMillis: Int = 30_000,
        hintMillis: Int = 2000,
        maxHeldPieces: Int = 1,
        dragRateLimit: Int = 200,
        chatRateLimit: Int = 2,
        chatBurst: Int = 10,
        passwordFreeAttempts: Int = 5,
        passwordRetryMillis: Int = 1000,
        dataDirectory: String = "./puzzle-data",
        fsync: FsyncPolicy = .batch,
        snapshotEvery: Int = 1000,
        logLevel: LogLevel = .info,
        seed: UInt64? = nil,
        rooms: [RoomSpec] = [ServerConfig.defaultRoom],
        pictures: [String: String] = [:]
    ) {
        self.bind = bind
        self.port = port
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.maxLineLength = maxLineLength
        self.outputSoftLimit = outputSoftLimit
        self.outputHardLimit = outputHardLimit
        self.slowReaderGraceMillis = slowReaderGraceMillis
        self.socketSendBuffer = socketSendBuffer
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.httpHeaderTimeoutMillis = httpHeaderTimeoutMillis
        self.webSocketPingMillis = webSocketPingMillis
        self.webOrigins = webOrigins
        self.forgetAbsentSeconds = forgetAbsentSeconds
        self.idleRoomSeconds = idleRoomSeconds
        self.leaseMillis = leaseMillis
        self.hintMillis = hintMillis
        self.maxHeldPieces = maxHeldPieces
        self.dragRateLimit = dragRateLimit
        self.chatRateLimit = chatRateLimit
        self.chatBurst = chatBurst
        self.passwordFreeAttempts = passwordFreeAttempts
        self.passwordRetryMillis = passwordRetryMillis
        self.dataDirectory = dataDirectory
        self.fsync = fsync
        self.snapshotEvery = snapshotEvery
        self.logLevel = logLevel
        self.seed = seed
        self.rooms = rooms
        self.pictures = pictures
    }
}


/// Where the telnet gateway listens (``ServerConfig/telnetPort``).
public enum TelnetPortSetting: Hashable, Sendable {
    /// No telnet port.
    case off
    /// The game port + 1; a free port when the game port is 0.
    case auto
    /// This port (0: a free one).
    case port(Int)
}
