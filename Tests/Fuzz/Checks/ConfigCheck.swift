import PuzzleCore
import PuzzleProtocol
import PuzzleServer

/// A config file is written by people: any text must either give a config the
/// server can start with or a `ConfigError` pointing at a line of the file.
enum ConfigCheck {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        // ServerConfig.load refuses files that are not UTF-8 before parsing.
        guard let text = String(validating: input, as: UTF8.self) else { return }
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        let config: ServerConfig
        do {
            config = try ServerConfig.parse(text: text, baseDirectory: "/fuzz/base")
        } catch {
            if let line = error.line {
                try require((1...lineCount).contains(line), .config, "error \"\(error)\" names line \(line) of \(lineCount)")
            }
            try require(!error.description.isEmpty, .config, "error without a message")
            return
        }
        try checkUsable(config)
    }

    /// What the server relies on when it starts from a parsed config.
    static func checkUsable(_ config: ServerConfig) throws(FuzzFailure) {
        do { try config.validate() } catch {
            throw FuzzFailure(.config, "parse accepted a config that validate refuses: \(error)")
        }
        try require(!config.rooms.isEmpty, .config, "no rooms")
        try require(Set(config.rooms.map(\.name)).count == config.rooms.count, .config, "two rooms with one name")
        try require((0...65535).contains(config.port), .config, "port \(config.port)")
        try require(config.maxLineLength >= 64, .config, "max_line_length \(config.maxLineLength)")
        try require(config.outputSoftLimit < config.outputHardLimit, .config, "soft limit not below hard limit")
        for room in config.rooms {
            try RoomSpecCheck.checkValid(room, from: room.description)
        }
        for (name, path) in config.pictures {
            try require(NameRule.isValid(name) && !path.isEmpty, .config, "picture \"\(name)\" at \"\(path)\"")
        }
    }
}

/// A room spec that parses must be one the server can host, and its
/// description must parse back to the same spec (it is how specs are logged
/// and listed, and the documented round trip).
enum RoomSpecCheck {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let spec: RoomSpec
        do { spec = try RoomSpec.parse(config: text) } catch {
            guard case .badRoomSpec = error.kind else {
                throw FuzzFailure(.roomSpec, "room spec error of an unexpected kind: \(error)")
            }
            return
        }
        try checkValid(spec, from: text)
    }

    static func checkValid(_ spec: RoomSpec, from text: String) throws(FuzzFailure) {
        try require(NameRule.isValid(spec.name) && NameRule.isValid(spec.picture), .roomSpec, "bad name or picture in \(spec) from \"\(text)\"")
        try require(PuzzleSpec.sizeRange.contains(spec.rows) && PuzzleSpec.sizeRange.contains(spec.cols), .roomSpec, "size \(spec.rows)x\(spec.cols) from \"\(text)\"")
        try require(!(spec.rotation && spec.kind == .swap), .roomSpec, "a swap room with rotation from \"\(text)\"")
        let again = try? RoomSpec.parse(config: spec.description)
        try require(again == spec, .roomSpec, "\"\(text)\" parses to \(spec), whose description parses to \(String(describing: again))")
    }
}
