import Foundation
import PuzzleSystem

extension ServerConfig {
    /// Reads a config file's text, starting from the defaults.
    ///
    /// Each line is `key = value`, blank, or a comment. `#` starts a comment at the
    /// beginning of a line or after a space or tab, so `password=a#b` keeps its `#`.
    /// Spaces around keys and values are ignored. `room` and `picture` may repeat;
    /// any other key may appear once. If there is any `room` line, the rooms
    /// listed replace the default room. `picture` paths are resolved against
    /// `baseDirectory` (the config file's directory).
    ///
    /// - Throws: ``ConfigError`` with the 1-based line number of the first problem.
    public static func parse(text: String, baseDirectory: String) throws(ConfigError) -> ServerConfig {
        var config = ServerConfig()
        var firstLineOfKey: [ConfigKey: Int] = [:]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)

        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            let content = stripComment(rawLine).configTrimmed()
            if content.isEmpty {
                continue
            }
            guard let equals = content.firstIndex(of: "=") else {
                throw ConfigError(.malformedLine(content), line: lineNumber)
            }
            let keyText = content[..<equals].configTrimmed()
            let value = content[content.index(after: equals)...].configTrimmed()
            guard !keyText.isEmpty else {
                throw ConfigError(.malformedLine(content), line: lineNumber)
            }
            guard let key = ConfigKey(rawValue: keyText) else {
                throw ConfigError(.unknownKey(keyText), line: lineNumber)
            }
            if let first = firstLineOfKey[key] {
                if !key.isRepeatable {
                    throw ConfigError(.duplicateKey(keyText, firstLine: first), line: lineNumber)
                }
            } else {
                firstLineOfKey[key] = lineNumber
                if key == .room {
                    config.rooms = []
                }
            }
            do {
                try key.apply(value, as: keyText, to: &config, baseDirectory: baseDirectory)
            } catch {
                throw ConfigError(error.kind, line: lineNumber)
            }
        }

        do {
            try config.validate()
        } catch {
            // Blame the line that set the later of the two clashing keys, if any.
            let blamed = [firstLineOfKey[.outputSoftLimit], firstLineOfKey[.outputHardLimit]].compactMap { $0 }.max()
            throw ConfigError(error.kind, line: blamed)
        }
        return config
    }

    /// Reads and parses the config file at `path`; `picture` paths in it are
    /// relative to the file's directory.
    ///
    /// - Throws: ``ConfigError`` naming `path`, with a line number when a line is at fault.
    public static func load(path: String) throws(ConfigError) -> ServerConfig {
        // Read with our own call, not Foundation's: `--config /dev/null` (no
        // settings) is a device Foundation refuses to read.
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            throw ConfigError(.unreadableFile(path: path, reason: readFailureReason(path: path, error: error)), file: path)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(.unreadableFile(path: path, reason: "not valid UTF-8 text"), file: path)
        }
        do {
            return try parse(text: text, baseDirectory: directory(of: path))
        } catch {
            throw ConfigError(error.kind, line: error.line, file: path)
        }
    }

    /// Checks rules that involve more than one key; the parsers call it last.
    ///
    /// - Throws: ``ConfigError`` with kind `.inconsistent` or `.duplicateRoom`.
    public func validate() throws(ConfigError) {
        guard outputSoftLimit < outputHardLimit else {
            throw ConfigError(.inconsistent(
                "output_soft_limit (\(ConfigValue.renderBytes(outputSoftLimit))) must be below output_hard_limit (\(ConfigValue.renderBytes(outputHardLimit)))"))
        }
        guard !dataDirectory.isEmpty else {
            throw ConfigError(.inconsistent("data_directory must not be empty (use . for the working directory)"))
        }
        guard !rooms.isEmpty else {
            throw ConfigError(.inconsistent("at least one room is needed"))
        }
        if let telnet = telnetListenPort, telnet > 65535 {
            throw ConfigError(.inconsistent("telnet_port auto is port + 1, past 65535: set telnet_port to a port or off"))
        }
        if let telnet = telnetListenPort, telnet != 0, telnet == port {
            throw ConfigError(.inconsistent("telnet_port (\(telnet)) must differ from port"))
        }
        var names: Set<String> = []
        for room in rooms where !names.insert(room.name).inserted {
            throw ConfigError(.duplicateRoom(room.name))
        }
    }

    /// The line with any comment removed: from a `#` that starts the line or
    /// follows a space or tab.
    private static func stripComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if character == "#" && (previous == " " || previous == "\t") {
                return line[..<index]
            }
            previous = character
        }
        return line
    }

    /// The directory part of `path`: `"."` for a bare file name, `"/"` for a file at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else {
            return "."
        }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func readFailureReason(path: String, error: Errno) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return "no such file"
        }
        if isDirectory.boolValue {
            return "is a directory"
        }
        if !FileManager.default.isReadableFile(atPath: path) {
            return "permission denied"
        }
        return "\(error)"
    }
}
