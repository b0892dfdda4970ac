/// A problem found while reading the server configuration, from a config file,
/// a command-line flag or a single room spec.
///
/// `kind` says what went wrong in a form tests and callers can match on;
/// `line` and `file` say where, when the problem came from a config file.
/// `description` is the one-line message meant for a person, e.g.
/// `Config/puzzle.conf:12: unknown key "prot"`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// A non-blank, non-comment line without `key = value` shape.
        case malformedLine(String)
        /// A config key nobody knows.
        case unknownKey(String)
        /// A key (or flag) whose value does not parse or is out of range;
        /// `expected` describes what would have been accepted.
        case badValue(key: String, value: String, expected: String)
        /// A key that may appear once appeared again; `firstLine` is where it was first set.
        case duplicateKey(String, firstLine: Int)
        /// A `room` spec that does not follow `NAME KIND ROWSxCOLS [options]`.
        case badRoomSpec(spec: String, reason: String)
        /// Two rooms with the same name.
        case duplicateRoom(String)
        /// Two `picture` lines with the same name.
        case duplicatePicture(String)
        /// Values that are each fine but contradict each other (e.g. soft limit above hard limit).
        case inconsistent(String)
        /// The config file could not be read.
        case unreadableFile(path: String, reason: String)
        /// A command-line argument that is not a known flag.
        case unknownFlag(String)
        /// A command-line flag given without its value.
        case missingFlagValue(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// 1-based line number in the config file, when the problem is tied to a line.
    public var line: Int?
    /// Path of the config file, when the problem came from a loaded file.
    public var file: String?

    public init(_ kind: Kind, line: Int? = nil, file: String? = nil) {
        self.kind = kind
        self.line = line
        self.file = file
    }

    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        case let (file?, nil): return "\(file): \(message)"
        case let (nil, line?): return "line \(line): \(message)"
        case (nil, nil): return message
        }
    }

    /// The message without the location prefix.
    public var message: String {
        switch kind {
        case .malformedLine(let text):
            return "expected \"key = value\", found \"\(text)\""
        case .unknownKey(let key):
            return "unknown key \"\(key)\""
        case .badValue(let key, let value, let expected):
            return "bad value \"\(value)\" for \(key): expected \(expected)"
        case .duplicateKey(let key, let firstLine):
            return "\"\(key)\" is already set on line \(firstLine); it may appear only once"
        case .badRoomSpec(let spec, let reason):
            return "bad room spec \"\(spec)\": \(reason)"
        case .duplicateRoom(let name):
            return "room \"\(name)\" is defined more than once"
        case .duplicatePicture(let name):
            return "picture \"\(name)\" is defined more than once"
        case .inconsistent(let reason):
            return reason
        case .unreadableFile(let path, let reason):
            return "cannot read config file \"\(path)\": \(reason)"
        case .unknownFlag(let flag):
            return "unknown option \"\(flag)\" (try --help)"
        case .missingFlagValue(let flag):
            return "option \(flag) needs a value"
        }
    }
}
