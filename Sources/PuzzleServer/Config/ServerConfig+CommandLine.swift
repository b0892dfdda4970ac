import Foundation

extension ServerConfig {
    /// What `puzzle serve` should do after reading its arguments.
    public enum CommandLineResult: Equatable, Sendable {
        /// Start the server with this configuration.
        case run(ServerConfig)
        /// Print this text (``ServerConfig/usage``) to stdout and exit successfully.
        case help(String)
    }

    /// Flags in the order `--help` lists them.
    static let flagKeys: [ConfigKey] = [
        .port, .bind, .dataDirectory, .maxConnections, .maxConnectionsPerAddress, .maxLineLength, .logLevel,
        .leaseMillis, .dragRateLimit, .chatRateLimit, .chatBurst, .passwordFreeAttempts, .passwordRetryMillis,
        .idleTimeoutSeconds, .fsync, .seed, .room, .pictureFolder, .uploads, .telnetPort, .telnetMaxSessions,
    ]

    /// Builds the configuration from `puzzle serve`'s arguments (those after the
    /// subcommand).
    ///
    /// Order of precedence, lowest first: built-in defaults; the file named by
    /// `--config FILE`, or else `defaultConfigPath` if that file exists; then every
    /// other flag, left to right (a repeated flag's last value wins). `--room`
    /// may repeat: the rooms given replace the config's rooms. Flags take their
    /// value as the next argument or after `=` (`--port 5`, `--port=5`).
    /// `-h`/`--help` returns ``CommandLineResult/help(_:)`` without reading any file.
    ///
    /// - Throws: ``ConfigError`` for an unknown flag, a missing or bad value, or a
    ///   config file problem (naming the file and line).
    public static func fromCommandLine(
        _ args: [String],
        defaultConfigPath: String?
    ) throws(ConfigError) -> CommandLineResult {
        var configPath: String?
        var settings: [(key: ConfigKey, flag: String, value: String)] = []

        var remaining = args[...]
        while let arg = remaining.popFirst() {
            if arg == "-h" || arg == "--help" {
                return .help(usage)
            }
            let flag: String
            var value: String?
            if arg.hasPrefix("--"), let equals = arg.firstIndex(of: "=") {
                flag = String(arg[..<equals])
                value = String(arg[arg.index(after: equals)...])
            } else {
                flag = arg
            }
            let key: ConfigKey?
            if flag == "--config" {
                key = nil
            } else if let known = flagKeys.first(where: { $0.flag?.name == flag }) {
                key = known
            } else {
                throw ConfigError(.unknownFlag(arg))
            }
            if value == nil {
                // A following "-h" or "--x" is a forgotten value, not a value.
                guard let next = remaining.first, !next.hasPrefix("-") || ConfigValue.integer(next) != nil else {
                    throw ConfigError(.missingFlagValue(flag))
                }
                value = next
                remaining.removeFirst()
            }
            if let key {
                settings.append((key, flag, value!))
            } else {
                configPath = value
            }
        }

        var config: ServerConfig
        if let configPath {
            config = try load(path: configPath)
        } else if let defaultConfigPath, FileManager.default.fileExists(atPath: defaultConfigPath) {
            config = try load(path: defaultConfigPath)
        } else {
            config = ServerConfig()
        }

        var sawRoom = false
        for setting in settings {
            if setting.key == .room && !sawRoom {
                sawRoom = true
                config.rooms = []
            }
            try setting.key.apply(setting.value, as: setting.flag, to: &config, baseDirectory: ".")
        }
        try config.validate()
        return .run(config)
    }

    /// Help text for `puzzle serve --help`: every flag with its default.
    public static var usage: String {
        let defaults = ServerConfig()
        var rows: [(String, String)] = [
            ("--config FILE", "config file read before the other options (default: Config/puzzle.conf if it exists)"),
        ]
        for key in flagKeys {
            guard let flag = key.flag else {
                continue
            }
            rows.append(("\(flag.name) \(flag.metavar)", "\(flag.summary) (default: \(key.render(defaults)))"))
        }
        rows.append(("-h, --help", "show this help and exit"))

        let width = rows.map(\.0.count).max()! + 2
        var text = """
            usage: puzzle serve [options]

            Runs the puzzle server. Settings come from built-in defaults, then the
            config file, then these options. Every option also takes --option=VALUE.

            options:

            """
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count) + right + "\n"
        }
        return text
    }
}
