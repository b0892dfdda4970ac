import PuzzleProtocol
import Foundation
import Testing
import PuzzleSystem

@testable import PuzzleServer

@Suite("ServerConfig command line")
struct ServerConfigCommandLineTests {
    /// A config file in a fresh temporary directory, removed by `remove()`.
    private struct TempConfig {
        let directory: String
        let path: String

        init(_ text: String) throws {
            directory = FileManager.default.temporaryDirectory.path + "/puzzle-config-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/test.conf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    private func run(_ args: [String], defaultPath: String? = nil) throws -> ServerConfig {
        let result = try ServerConfig.fromCommandLine(args, defaultConfigPath: defaultPath)
        guard case .run(let config) = result else {
            Issue.record("expected .run, got \(result)")
            return ServerConfig()
        }
        return config
    }

    private func failure(_ args: [String], defaultPath: String? = nil) -> ConfigError? {
        do {
            _ = try ServerConfig.fromCommandLine(args, defaultConfigPath: defaultPath)
            return nil
        } catch {
            return error
        }
    }

    @Test func noArgumentsAndNoDefaultFileGiveDefaults() throws {
        #expect(try run([]) == ServerConfig())
        #expect(try run([], defaultPath: "/nonexistent/puzzle.conf") == ServerConfig())
    }

    @Test func everyFlagInBothForms() throws {
        let spaced = try run([
            "--port", "8123", "--bind", "::", "--data", "/tmp/d", "--max-connections", "7",
            "--max-line", "4096", "--log-level", "error", "--lease-ms", "250", "--drag-rate", "0",
            "--idle-timeout", "60", "--fsync", "never", "--seed", "18446744073709551615", "--room", "r1 swap 3x4",
            "--max-per-address", "3", "--chat-rate", "0", "--chat-burst", "4",
            "--password-attempts", "9", "--password-retry-ms", "0",
        ])
        let joined = try run([
            "--port=8123", "--bind=::", "--data=/tmp/d", "--max-connections=7",
            "--max-line=4K", "--log-level=error", "--lease-ms=250", "--drag-rate=0",
            "--idle-timeout=60", "--fsync=never", "--seed=18446744073709551615", "--room=r1 swap 3x4",
            "--max-per-address=3", "--chat-rate=0", "--chat-burst=4",
            "--password-attempts=9", "--password-retry-ms=0",
        ])
        var expected = ServerConfig()
        expected.port = 8123
        expected.bind = "::"
        expected.dataDirectory = "/tmp/d"
        expected.maxConnections = 7
        expected.maxLineLength = 4096
        expected.logLevel = .error
        expected.leaseMillis = 250
        expected.dragRateLimit = 0
        expected.idleTimeoutSeconds = 60
        expected.fsync = .never
        expected.seed = .max
        expected.rooms = [RoomSpec(name: "r1", kind: .swap, rows: 3, cols: 4)]
        expected.maxConnectionsPerAddress = 3
        expected.chatRateLimit = 0
        expected.chatBurst = 4
        expected.passwordFreeAttempts = 9
        expected.passwordRetryMillis = 0
        #expect(spaced == expected)
        #expect(joined == expected)
    }

    @Test func seedIsANumberOrRandom() throws {
        #expect(try run(["--seed", "0"]).seed == 0)
        #expect(try run(["--seed", "5", "--seed", "random"]).seed == nil)
        #expect(try run([]).seed == nil)
    }

    @Test func portZero() throws {
        #expect(try run(["--port", "0"]).port == 0)
        #expect(try run(["--port=0"]).port == 0)
    }

    @Test func flagsOverrideTheConfigFile() throws {
        let file = try TempConfig("port = 9000\nlog_level = debug\nroom = a jigsaw 5x5\nroom = b swap 2x2\npicture = p pics/p.ppm\n")
        defer { file.remove() }

        let fromFile = try run(["--config", file.path])
        #expect(fromFile.port == 9000)
        #expect(fromFile.logLevel == .debug)
        #expect(fromFile.rooms.map(\.name) == ["a", "b"])
        #expect(fromFile.pictures == ["p": file.directory + "/pics/p.ppm"])

        let overridden = try run(["--port", "9001", "--config=\(file.path)", "--room", "c jigsaw 2x2", "--room", "d swap 9x9"])
        #expect(overridden.port == 9001)
        #expect(overridden.logLevel == .debug)
        #expect(overridden.rooms.map(\.name) == ["c", "d"])
        #expect(overridden.pictures == fromFile.pictures)
    }

    @Test func defaultConfigPathIsUsedOnlyWithoutConfigFlag() throws {
        let fallback = try TempConfig("port = 7001\n")
        let chosen = try TempConfig("hint_ms = 5\n")
        defer {
            fallback.remove()
            chosen.remove()
        }
        #expect(try run([], defaultPath: fallback.path).port == 7001)
        let explicit = try run(["--config", chosen.path], defaultPath: fallback.path)
        #expect(explicit.port == 7171)
        #expect(explicit.hintMillis == 5)
    }

    @Test func lastRepeatedFlagWins() throws {
        #expect(try run(["--port", "1", "--port", "2"]).port == 2)
    }

    @Test func helpListsEveryFlagWithItsDefault() throws {
        let result = try ServerConfig.fromCommandLine(["--port", "1", "--help"], defaultConfigPath: "/nonexistent")
        #expect(result == .help(ServerConfig.usage))
        #expect(try ServerConfig.fromCommandLine(["-h"], defaultConfigPath: nil) == .help(ServerConfig.usage))

        let usage = ServerConfig.usage
        for flag in ["--config", "--port", "--bind", "--data", "--max-connections", "--max-line", "--log-level",
            "--lease-ms", "--drag-rate", "--idle-timeout", "--fsync", "--room", "--help", "-h",
            "--max-per-address", "--chat-rate", "--chat-burst", "--password-attempts", "--password-retry-ms"]
        {
            #expect(usage.contains(flag), "usage lacks \(flag)")
        }
        for text in ["(default: 7171)", "(default: 0.0.0.0)", "(default: ./puzzle-data)", "(default: 1024)",
            "(default: info)", "(default: 30000)", "(default: 200)", "(default: 300)", "(default: batch)",
            "(default: lobby jigsaw 4x4)", "(default: 64)", "(default: 2)", "(default: 10)", "(default: 5)"]
        {
            #expect(usage.contains(text), "usage lacks \(text)")
        }
    }

    @Test func helpDoesNotReadTheConfigFile() throws {
        #expect(try ServerConfig.fromCommandLine(["--config", "/nonexistent.conf", "--help"], defaultConfigPath: nil)
            == .help(ServerConfig.usage))
    }

    @Test func badFlagsAreRejected() {
        #expect(failure(["--prot", "1"]) == ConfigError(.unknownFlag("--prot")))
        #expect(failure(["serve"]) == ConfigError(.unknownFlag("serve")))
        #expect(failure(["--port"]) == ConfigError(.missingFlagValue("--port")))
        #expect(failure(["--data", "--port", "3"]) == ConfigError(.missingFlagValue("--data")))
        #expect(failure(["--port", "x"])?.kind == .badValue(key: "--port", value: "x", expected: "a whole number in 0...65535"))
        #expect(failure(["--port", "-1"])?.kind == .badValue(key: "--port", value: "-1", expected: "a whole number in 0...65535"))
        #expect(failure(["--seed", "-1"])?.kind == .badValue(key: "--seed", value: "-1", expected: "random or a whole number in 0...18446744073709551615"))
        #expect(failure(["--room", "a b c"]).map { if case .badRoomSpec = $0.kind { true } else { false } } == true)
        #expect(failure(["--room", "a swap 2x2", "--room", "a jigsaw 2x2"]) == ConfigError(.duplicateRoom("a")))
    }

    @Test func configFileErrorsNameFileAndLine() throws {
        let file = try TempConfig("port = 1\nport = 2\n")
        defer { file.remove() }
        let error = failure(["--config", file.path])
        #expect(error == ConfigError(.duplicateKey("port", firstLine: 1), line: 2, file: file.path))
        #expect(error?.description.hasPrefix(file.path + ":2: ") == true)

        let missing = file.directory + "/absent.conf"
        #expect(failure(["--config", missing]) == ConfigError(.unreadableFile(path: missing, reason: "no such file"), file: missing))
    }

    /// `--config /dev/null` is the shell's way to say "no settings": the
    /// defaults, not an unreadable file. Bytes that are not UTF-8 are said.
    @Test func devNullIsNoSettingsAndBadBytesAreSaid() throws {
        #expect(try run(["--config", "/dev/null", "--port", "9"]).port == 9)
        let file = try TempConfig("port = 1\n")
        defer { file.remove() }
        try FileSystem.writeFile(file.path, [0x70, 0xFF, 0x0A], sync: false)
        #expect(failure(["--config", file.path]) == ConfigError(.unreadableFile(path: file.path, reason: "not valid UTF-8 text"), file: file.path))
    }
}
