import PuzzleProtocol
import PuzzleWeb
/// The config file's keys: their spelling, their flag, and how a value is read
/// into a ``ServerConfig``. One table drives the file parser, the flag parser and
/// the `--help` text, so the three cannot drift apart.
enum ConfigKey: String, CaseIterable, Sendable {
    case bind
    case port
    case maxConnections = "max_connections"
    case maxConnectionsPerAddress = "max_connections_per_address"
    case maxLineLength = "max_line_length"
    case outputSoftLimit = "output_soft_limit"
    case outputHardLimit = "output_hard_limit"
    case slowReaderGraceMillis = "slow_reader_grace_ms"
    case socketSendBuffer = "socket_send_buffer"
    case idleTimeoutSeconds = "idle_timeout_seconds"
    case httpHeaderTimeoutMillis = "http_header_timeout_ms"
    case webSocketPingMillis = "websocket_ping_ms"
    case webOrigins = "web_origins"
    case leaseMillis = "lease_ms"
    case hintMillis = "hint_ms"
    case maxHeldPieces = "max_held_pieces"
    case dragRateLimit = "drag_rate_limit"
    case chatRateLimit = "chat_rate_limit"
    case chatBurst = "chat_burst"
    case passwordFreeAttempts = "password_free_attempts"
    case passwordRetryMillis = "password_retry_ms"
    case dataDirectory = "data_directory"
    case fsync
    case snapshotEvery = "snapshot_every"
    case forgetAbsentSeconds = "forget_absent_seconds"
    case idleRoomSeconds = "idle_room_seconds"
    case replaysKept = "replays_kept"
    case rejoinMemoryMB = "rejoin_memory_mb"
    case logLevel = "log_level"
    case seed
    case room
    case picture
    case pictureFolder = "picture_folder"
    case pictureMaxBytes = "picture_max_bytes"
    case pictureMaxPixels = "picture_max_pixels"
    case uploads
    case uploadMaxBytes = "upload_max_bytes"
    case uploadsPerHour = "uploads_per_hour"
    case uploadMaxCount = "upload_max_count"
    case createsPerHour = "creates_per_hour"
    case telnetPort = "telnet_port"
    case telnetMaxSessions = "telnet_max_sessions"

    /// Keys that may appear on many lines, each adding one entry.
    var isRepeatable: Bool {
        self == .room || self == .picture
    }

    /// The command-line flag setting this key, with the name of its value in `--help`.
    var flag: (name: String, metavar: String, summary: String)? {
        switch self {
        case .port: ("--port", "N", "TCP port to listen on; 0 picks a free port")
        case .bind: ("--bind", "ADDR", "address to listen on (0.0.0.0 = all IPv4, :: = all IPv6)")
        case .dataDirectory: ("--data", "DIR", "directory for journals and snapshots")
        case .maxConnections: ("--max-connections", "N", "most simultaneous connections")
        case .maxConnectionsPerAddress: ("--max-per-address", "N", "most simultaneous connections from one IP address; 0 = no limit")
        case .maxLineLength: ("--max-line", "N", "longest request line in bytes")
        case .logLevel: ("--log-level", "L", "debug, info, warn or error")
        case .leaseMillis: ("--lease-ms", "N", "ms a grabbed piece stays locked without a drag, turn or KEEP")
        case .dragRateLimit: ("--drag-rate", "N", "drags per second per connection; 0 = unlimited")
        case .chatRateLimit: ("--chat-rate", "N", "chat lines per second per connection after the burst; 0 = unlimited")
        case .chatBurst: ("--chat-burst", "N", "chat lines a connection may send at once")
        case .passwordFreeAttempts: ("--password-attempts", "N", "wrong room passwords one address may try at full speed")
        case .passwordRetryMillis: ("--password-retry-ms", "N", "then one password check per N ms per address; 0 = no limit")
        case .idleTimeoutSeconds: ("--idle-timeout", "S", "seconds before an idle connection is closed; 0 = never")
        case .fsync: ("--fsync", "P", "always (once per move), batch (once per loop turn, before replies) or never")
        case .seed: ("--seed", "N", "seed for new rooms' layouts (0...2^64-1), or random; tests fix it")
        case .pictureFolder: ("--pictures", "DIR", "offer every PNG, JPEG and PPM file in DIR as a picture named by its file name")
        case .uploads: ("--uploads", "on|off", "whether players may upload pictures of their own")
        case .telnetPort: ("--telnet-port", "N", "telnet port for the full-screen game (auto = port + 1, off, or N; 0 picks a free port)")
        case .telnetMaxSessions: ("--telnet-max", "N", "most telnet sessions at once")
        case .room: ("--room", "SPEC", "\"NAME jigsaw|swap RxC [picture=P] [rotation=on|off] [password=S] [pictures=cycle|fixed] [lid=on|off] [place=own|shape] ...\" (Room specs in PROTOCOL.md); repeatable, replaces config rooms")
        case .outputSoftLimit, .outputHardLimit, .slowReaderGraceMillis, .socketSendBuffer, .hintMillis,
            .httpHeaderTimeoutMillis, .webSocketPingMillis, .webOrigins,
            .maxHeldPieces, .snapshotEvery, .picture, .forgetAbsentSeconds, .idleRoomSeconds, .replaysKept, .rejoinMemoryMB,
            .pictureMaxBytes, .pictureMaxPixels, .uploadMaxBytes, .uploadsPerHour, .uploadMaxCount, .createsPerHour:
            nil
        }
    }

    /// Reads `value` into `config`. `room` appends (the caller decides when the
    /// defaults are dropped); `picture` resolves its path against `baseDirectory`.
    /// `name` is how the user spelled the key (config key or flag), for messages.
    func apply(
        _ value: String,
        as name: String,
        to config: inout ServerConfig,
        baseDirectory: String
    ) throws(ConfigError) {
        func bad(_ expected: String) -> ConfigError {
            ConfigError(.badValue(key: name, value: value, expected: expected))
        }
        func integer(_ range: ClosedRange<Int>) throws(ConfigError) -> Int {
            guard let number = ConfigValue.integer(value), range.contains(number) else {
                throw bad("a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        func bytes(_ range: ClosedRange<Int>) throws(ConfigError) -> Int {
            guard let number = ConfigValue.bytes(value), range.contains(number) else {
                throw bad("a byte count in \(ConfigValue.renderBytes(range.lowerBound))...\(ConfigValue.renderBytes(range.upperBound)), optionally with suffix K, KiB, M or MiB")
            }
            return number
        }

        switch self {
        case .bind:
            guard ConfigValue.isIPLiteral(value) else {
                throw bad("an IPv4 or IPv6 address such as 0.0.0.0, 127.0.0.1 or ::")
            }
            config.bind = value
        case .port:
            config.port = try integer(0...65535)
        case .maxConnections:
            config.maxConnections = try integer(1...1_000_000)
        case .maxConnectionsPerAddress:
            config.maxConnectionsPerAddress = try integer(0...1_000_000)
        case .maxLineLength:
            config.maxLineLength = try bytes(64...(1 << 20))
        case .outputSoftLimit:
            config.outputSoftLimit = try bytes(1024...(1 << 30))
        case .outputHardLimit:
            config.outputHardLimit = try bytes(1024...(1 << 30))
        case .slowReaderGraceMillis:
            config.slowReaderGraceMillis = try integer(1...3_600_000)
        case .socketSendBuffer:
            config.socketSendBuffer = try bytes(0...(1 << 30))
        case .idleTimeoutSeconds:
            config.idleTimeoutSeconds = try integer(0...604_800)
        case .httpHeaderTimeoutMillis:
            config.httpHeaderTimeoutMillis = try integer(100...600_000)
        case .webSocketPingMillis:
            config.webSocketPingMillis = try integer(0...3_600_000)
        case .webOrigins:
            guard let policy = ConfigValue.webOrigins(value) else {
                throw bad("same, any, or origins such as http://192.168.1.5:7171 separated by spaces")
            }
            config.webOrigins = policy
        case .forgetAbsentSeconds:
            config.forgetAbsentSeconds = try integer(0...315_360_000)
        case .idleRoomSeconds:
            config.idleRoomSeconds = try integer(0...315_360_000)
        case .replaysKept:
            config.replaysKept = try integer(0...1000)
        case .rejoinMemoryMB:
            config.rejoinMemoryBytes = try integer(0...65_536) << 20
        case .leaseMillis:
            config.leaseMillis = try integer(1...3_600_000)
        case .hintMillis:
            config.hintMillis = try integer(1...600_000)
        case .maxHeldPieces:
            config.maxHeldPieces = try integer(1...100)
        case .dragRateLimit:
            config.dragRateLimit = try integer(0...100_000)
        case .chatRateLimit:
            config.chatRateLimit = try integer(0...100_000)
        case .chatBurst:
            config.chatBurst = try integer(1...100_000)
        case .passwordFreeAttempts:
            config.passwordFreeAttempts = try integer(1...1000)
        case .passwordRetryMillis:
            config.passwordRetryMillis = try integer(0...3_600_000)
        case .dataDirectory:
            // Empty would put the rooms at the file-system root ("" + "/rooms").
            guard !value.isEmpty else {
                throw bad("a directory path (use . for the working directory)")
            }
            config.dataDirectory = value
        case .fsync:
            guard let policy = FsyncPolicy(rawValue: value) else {
                throw bad("always, batch or never")
            }
            config.fsync = policy
        case .snapshotEvery:
            config.snapshotEvery = try integer(1...10_000_000)
        case .logLevel:
            guard let level = LogLevel(name: value) else {
                throw bad("debug, info, warn or error")
            }
            config.logLevel = level
        case .seed:
            if value == "random" {
                config.seed = nil
            } else {
                guard let seed = UInt64(value) else { throw bad("random or a whole number in 0...\(UInt64.max)") }
                config.seed = seed
            }
        case .room:
            let room = try RoomSpec.parse(config: value)
            guard !config.rooms.contains(where: { $0.name == room.name }) else {
                throw ConfigError(.duplicateRoom(room.name))
            }
            config.rooms.append(room)
        case .picture:
            let (pictureName, path) = try ConfigValue.picture(value, key: name)
            guard config.pictures[pictureName] == nil else {
                throw ConfigError(.duplicatePicture(pictureName))
            }
            config.pictures[pictureName] = ConfigValue.resolve(path, against: baseDirectory)
        case .pictureFolder:
            guard !value.isEmpty else { throw bad("a folder path, or none") }
            config.pictureFolder = value == "none" ? nil : ConfigValue.resolve(value, against: baseDirectory)
        case .pictureMaxBytes:
            config.pictureMaxBytes = try bytes(1024...(1 << 30))
        case .pictureMaxPixels:
            config.pictureMaxPixels = try integer(1...(1 << 28))
        case .uploads:
            switch value {
            case "on": config.uploads = true
            case "off": config.uploads = false
            default: throw bad("on or off")
            }
        case .uploadMaxBytes:
            config.uploadMaxBytes = try bytes(1024...(1 << 30))
        case .uploadsPerHour:
            config.uploadsPerHour = try integer(0...1_000_000)
        case .uploadMaxCount:
            config.uploadMaxCount = try integer(0...100_000)
        case .createsPerHour:
            config.createsPerHour = try integer(0...1_000_000)
        case .telnetPort:
            switch value {
            case "off": config.telnetPort = .off
            case "auto": config.telnetPort = .auto
            default:
                guard let number = ConfigValue.integer(value), (0...65535).contains(number) else {
                    throw bad("auto (the game port + 1), off, or a port in 0...65535")
                }
                config.telnetPort = .port(number)
            }
        case .telnetMaxSessions:
            config.telnetMaxSessions = try integer(1...100_000)
        }
    }

    /// The key's value in `config`, written as the config file would write it.
    func render(_ config: ServerConfig) -> String {
        switch self {
        case .bind: config.bind
        case .port: String(config.port)
        case .maxConnections: String(config.maxConnections)
        case .maxConnectionsPerAddress: String(config.maxConnectionsPerAddress)
        case .maxLineLength: String(config.maxLineLength)
        case .outputSoftLimit: ConfigValue.renderBytes(config.outputSoftLimit)
        case .outputHardLimit: ConfigValue.renderBytes(config.outputHardLimit)
        case .slowReaderGraceMillis: String(config.slowReaderGraceMillis)
        case .socketSendBuffer: ConfigValue.renderBytes(config.socketSendBuffer)
        case .idleTimeoutSeconds: String(config.idleTimeoutSeconds)
        case .httpHeaderTimeoutMillis: String(config.httpHeaderTimeoutMillis)
        case .webSocketPingMillis: String(config.webSocketPingMillis)
        case .webOrigins: ConfigValue.render(config.webOrigins)
        case .leaseMillis: String(config.leaseMillis)
        case .hintMillis: String(config.hintMillis)
        case .maxHeldPieces: String(config.maxHeldPieces)
        case .dragRateLimit: String(config.dragRateLimit)
        case .chatRateLimit: String(config.chatRateLimit)
        case .chatBurst: String(config.chatBurst)
        case .passwordFreeAttempts: String(config.passwordFreeAttempts)
        case .passwordRetryMillis: String(config.passwordRetryMillis)
        case .dataDirectory: config.dataDirectory
        case .fsync: config.fsync.rawValue
        case .snapshotEvery: String(config.snapshotEvery)
        case .forgetAbsentSeconds: String(config.forgetAbsentSeconds)
        case .idleRoomSeconds: String(config.idleRoomSeconds)
        case .replaysKept: String(config.replaysKept)
        case .rejoinMemoryMB: String(config.rejoinMemoryBytes >> 20)
        case .logLevel: config.logLevel.name
        case .seed: config.seed.map(String.init) ?? "random"
        case .room: config.rooms.map(\.description).joined(separator: "; ")
        case .picture: config.pictures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; ")
        case .pictureFolder: config.pictureFolder ?? "none"
        case .pictureMaxBytes: ConfigValue.renderBytes(config.pictureMaxBytes)
        case .pictureMaxPixels: String(config.pictureMaxPixels)
        case .uploads: config.uploads ? "on" : "off"
        case .uploadMaxBytes: ConfigValue.renderBytes(config.uploadMaxBytes)
        case .uploadsPerHour: String(config.uploadsPerHour)
        case .uploadMaxCount: String(config.uploadMaxCount)
        case .createsPerHour: String(config.createsPerHour)
        case .telnetPort:
            switch config.telnetPort {
            case .off: "off"
            case .auto: "auto"
            case .port(let p): String(p)
            }
        case .telnetMaxSessions: String(config.telnetMaxSessions)
        }
    }
}
