import PuzzleProtocol
import Testing

@testable import PuzzleServer

@Suite("ServerConfig file parsing")
struct ServerConfigParseTests {
    private func parse(_ text: String, base: String = "/etc/puzzle") throws(ConfigError) -> ServerConfig {
        try ServerConfig.parse(text: text, baseDirectory: base)
    }

    private func error(_ text: String) -> ConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsAreTheDocumentedValues() {
        let config = ServerConfig()
        #expect(config.bind == "0.0.0.0")
        #expect(config.port == 7171)
        #expect(config.maxConnections == 1024)
        #expect(config.maxLineLength == 1024)
        #expect(config.outputSoftLimit == 65536)
        #expect(config.outputHardLimit == 1_048_576)
        #expect(config.slowReaderGraceMillis == 5000)
        #expect(config.idleTimeoutSeconds == 300)
        #expect(config.leaseMillis == 30_000)
        #expect(config.hintMillis == 2000)
        #expect(config.maxHeldPieces == 1)
        #expect(config.dragRateLimit == 200)
        #expect(config.maxConnectionsPerAddress == 64)
        #expect(config.chatRateLimit == 2 && config.chatBurst == 10)
        #expect(config.passwordFreeAttempts == 5 && config.passwordRetryMillis == 1000)
        #expect(config.dataDirectory == "./puzzle-data")
        #expect(config.fsync == .batch)
        #expect(config.snapshotEvery == 1000)
        #expect(config.logLevel == .info)
        #expect(config.rooms == [RoomSpec(name: "lobby", kind: .jigsaw, rows: 4, cols: 4, picture: "sunset")])
        #expect(config.pictures.isEmpty)
    }

    @Test func emptyTextGivesDefaults() throws {
        #expect(try parse("") == ServerConfig())
        #expect(try parse("\n\n   \n# only a comment\n\t\n") == ServerConfig())
    }

    @Test func everyKeyIsParsed() throws {
        let text = """
            bind = 127.0.0.1
            port = 9000
            max_connections = 50
            max_line_length = 2K
            output_soft_limit = 128KiB
            output_hard_limit = 2M
            slow_reader_grace_ms = 750
            idle_timeout_seconds = 0
            lease_ms = 1500
            hint_ms = 3000
            max_held_pieces = 3
            drag_rate_limit = 0
            max_connections_per_address = 0
            chat_rate_limit = 7
            chat_burst = 1
            password_free_attempts = 2
            password_retry_ms = 250
            data_directory = /var/lib/puzzle
            fsync = always
            snapshot_every = 20
            log_level = debug
            picture = harbour pictures/harbour.ppm
            picture = moon /srv/moon picture.ppm
            room = big jigsaw 10x12 picture=harbour rotation=on
            room = quick swap 3x3 password=hush
            """
        let config = try parse(text)
        let expected = ServerConfig(
            bind: "127.0.0.1",
            port: 9000,
            maxConnections: 50,
            maxConnectionsPerAddress: 0,
            maxLineLength: 2048,
            outputSoftLimit: 128 * 1024,
            outputHardLimit: 2 * 1024 * 1024,
            slowReaderGraceMillis: 750,
            idleTimeoutSeconds: 0,
            leaseMillis: 1500,
            hintMillis: 3000,
            maxHeldPieces: 3,
            dragRateLimit: 0,
            chatRateLimit: 7,
            chatBurst: 1,
            passwordFreeAttempts: 2,
            passwordRetryMillis: 250,
            dataDirectory: "/var/lib/puzzle",
            fsync: .always,
            snapshotEvery: 20,
            logLevel: .debug,
            rooms: [
                RoomSpec(name: "big", kind: .jigsaw, rows: 10, cols: 12, picture: "harbour", rotation: true),
                RoomSpec(name: "quick", kind: .swap, rows: 3, cols: 3, password: "hush"),
            ],
            pictures: [
                "harbour": "/etc/puzzle/pictures/harbour.ppm",
                "moon": "/srv/moon picture.ppm",
            ]
        )
        #expect(config == expected)
    }

    @Test func everyEnumValueIsAccepted() throws {
        for policy in FsyncPolicy.allCases {
            #expect(try parse("fsync = \(policy.rawValue)").fsync == policy)
        }
        for level in LogLevel.allCases {
            #expect(try parse("log_level = \(level.name)").logLevel == level)
        }
        #expect(try parse("log_level = WARNING").logLevel == .warn)
    }

    @Test func bindAcceptsAddressLiteralsOnly() throws {
        for address in ["::", "::1", "0.0.0.0", "192.168.1.20", "fe80::1:2", "1:2:3:4:5:6:7:8", "::ffff:10.0.0.1"] {
            #expect(try parse("bind = \(address)").bind == address)
        }
        for address in ["localhost", "256.1.1.1", "1.2.3", "1:2:3:4:5:6:7:8:9", "1::2::3", "01.2.3.4", ":::", "12345::"] {
            #expect(error("bind = \(address)")?.kind == .badValue(
                key: "bind", value: address, expected: "an IPv4 or IPv6 address such as 0.0.0.0, 127.0.0.1 or ::"))
        }
    }

    @Test func commentsAndWhitespace() throws {
        let text = """
            # heading comment
              port=8000   # trailing comment
            \tlog_level =\twarn\t
            room = secret jigsaw 2x2 password=a#b   # '#' inside a word is kept
            data_directory = dir#with#hashes
            """
        let config = try parse(text)
        #expect(config.port == 8000)
        #expect(config.logLevel == .warn)
        #expect(config.rooms == [RoomSpec(name: "secret", kind: .jigsaw, rows: 2, cols: 2, password: "a#b")])
        #expect(config.dataDirectory == "dir#with#hashes")
    }

    @Test func windowsLineEndingsAreAccepted() throws {
        let config = try parse("port = 8001\r\nhint_ms = 10\r\n")
        #expect(config.port == 8001)
        #expect(config.hintMillis == 10)
    }

    @Test func roomLinesReplaceTheDefaultRoom() throws {
        let config = try parse("room = a swap 2x3\nport = 1\nroom = b jigsaw 5x5")
        #expect(config.rooms.map(\.name) == ["a", "b"])
        // A room may be named like the default one without clashing with it.
        #expect(try parse("room = lobby swap 3x3").rooms == [RoomSpec(name: "lobby", kind: .swap, rows: 3, cols: 3)])
    }

    @Test func portZeroMeansAnyFreePort() throws {
        #expect(try parse("port = 0").port == 0)
    }

    @Test func unknownKeyNamesLineAndKey() {
        let failure = error("port = 1\n\nprot = 2")
        #expect(failure == ConfigError(.unknownKey("prot"), line: 3))
        #expect(failure?.description == "line 3: unknown key \"prot\"")
    }

    @Test func badNumbersAreRejected() {
        let cases: [(String, String, String)] = [
            ("port = seventy", "port", "seventy"),
            ("port = 65536", "port", "65536"),
            ("port = -1", "port", "-1"),
            ("port = +80", "port", "+80"),
            ("port =", "port", ""),
            ("max_connections = 0", "max_connections", "0"),
            ("lease_ms = 1.5", "lease_ms", "1.5"),
            ("max_line_length = 10", "max_line_length", "10"),
            ("output_soft_limit = 64KB", "output_soft_limit", "64KB"),
            ("output_hard_limit = 99999999999999999999M", "output_hard_limit", "99999999999999999999M"),
            ("drag_rate_limit = -5", "drag_rate_limit", "-5"),
        ]
        for (line, key, value) in cases {
            let failure = error("# first\n" + line)
            #expect(failure?.line == 2, "\(line)")
            guard case .badValue(key, value, _)? = failure?.kind else {
                Issue.record("\(line): \(String(describing: failure))")
                continue
            }
        }
    }

    @Test func badEnumValuesAreRejected() {
        #expect(error("fsync = sometimes")?.kind == .badValue(key: "fsync", value: "sometimes", expected: "always, batch or never"))
        #expect(error("log_level = loud")?.kind == .badValue(key: "log_level", value: "loud", expected: "debug, info, warn or error"))
    }

    @Test func badRoomSpecNamesLine() {
        let failure = error("port = 1\nroom = lobby jigsaw 1x4")
        #expect(failure?.line == 2)
        guard case .badRoomSpec(let spec, _)? = failure?.kind else {
            Issue.record("wrong error \(String(describing: failure))")
            return
        }
        #expect(spec == "lobby jigsaw 1x4")
    }

    @Test func duplicateKeyNamesBothLines() {
        let failure = error("port = 1\n# x\nport = 2")
        #expect(failure == ConfigError(.duplicateKey("port", firstLine: 1), line: 3))
        #expect(failure?.description == "line 3: \"port\" is already set on line 1; it may appear only once")
    }

    @Test func duplicateRoomAndPictureNamesAreRejected() {
        #expect(error("room = a swap 2x2\nroom = a jigsaw 3x3") == ConfigError(.duplicateRoom("a"), line: 2))
        #expect(error("picture = p x.ppm\npicture = p y.ppm") == ConfigError(.duplicatePicture("p"), line: 2))
    }

    @Test func badPictureLinesAreRejected() {
        #expect(error("picture = lonely")?.line == 1)
        #expect(error("picture = bad/name file.ppm")?.line == 1)
    }

    @Test func malformedLinesAreRejected() {
        #expect(error("port 7171") == ConfigError(.malformedLine("port 7171"), line: 1))
        #expect(error(" = 5") == ConfigError(.malformedLine("= 5"), line: 1))
    }

    @Test func softLimitMustStayBelowHardLimit() {
        let failure = error("output_hard_limit = 64K\nport = 3\noutput_soft_limit = 64K")
        #expect(failure?.line == 3)
        guard case .inconsistent? = failure?.kind else {
            Issue.record("wrong error \(String(describing: failure))")
            return
        }
    }

    @Test func picturePathsResolveAgainstBaseDirectory() throws {
        #expect(try parse("picture = a a.ppm", base: ".").pictures == ["a": "./a.ppm"])
        #expect(try parse("picture = a sub/a.ppm", base: "conf/").pictures == ["a": "conf/sub/a.ppm"])
        #expect(try parse("picture = a /abs/a.ppm", base: "conf").pictures == ["a": "/abs/a.ppm"])
        #expect(ServerConfig.directory(of: "Config/puzzle.conf") == "Config")
        #expect(ServerConfig.directory(of: "puzzle.conf") == ".")
        #expect(ServerConfig.directory(of: "/puzzle.conf") == "/")
    }
}
