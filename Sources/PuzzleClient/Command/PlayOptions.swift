import PuzzleCore
/// What `puzzle play` was asked to do, parsed from its arguments.
public struct PlayOptions: Hashable, Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 7171
    public var name = "player"
    /// The room to join; nil: the server's only room, or the player picks one.
    public var room: String?
    public var password: String?
    /// Plain mode: exit non-zero if any command failed.
    public var strict = false
    /// Force plain mode even on a terminal.
    public var plain = false
    /// Where the player's resume tokens are kept (`ResumeTokenFile`); nil: not kept,
    /// every run is a new player.
    public var stateDirectory: String?
    /// Where pictures the server sent are kept between runs (`PictureDiskCache`); nil: not kept.
    public var cacheDirectory: String?
    /// Start as a new player: the token kept for this name and server is replaced.
    public var newPlayer = false
    /// Watch the room instead of playing in it (`WATCH`).
    public var watch = false

    public init() {}

    /// The result of parsing: options to run with, or a request for the help text.
    public enum Parsed: Hashable, Sendable {
        case run(PlayOptions)
        case help
    }

    /// A bad command line, with a message for the user.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Parses `[HOST[:PORT]] [--name NAME] [--room ROOM] [--password P] [--strict] [--plain] [--new-player] [--watch]`.
    /// `user` is the default player name (from `$USER`); it is cleaned to what HELLO accepts.
    public static func parse(_ args: [String], user: String?) throws(ParseError) -> Parsed {
        var o = PlayOptions()
        if let user, let cleaned = cleanName(user) { o.name = cleaned }
        var address: String?
        var i = 0
        func value(_ flag: String) throws(ParseError) -> String {
            i += 1
            guard i < args.count else { throw ParseError(message: "\(flag) needs a value") }
            return args[i]
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "-h", "--help": return .help
            case "--name":
                let n = try value(a)
                guard NameRule.isValid(n) else { throw ParseError(message: "names are \(NameRule.summary)") }
                o.name = n
            case "--room": o.room = try value(a)
            case "--password": o.password = try value(a)
            case "--strict": o.strict = true
            case "--plain": o.plain = true
            case "--new-player": o.newPlayer = true
            case "--watch": o.watch = true
            default:
                guard !a.hasPrefix("-"), address == nil else { throw ParseError(message: "unexpected argument '\(a)'") }
                address = a
            }
            i += 1
        }
        if let address { try o.setAddress(address) }
        if let room = o.room, !NameRule.isValid(room) { throw ParseError(message: "bad room name '\(room)': names are \(NameRule.summary)") }
        return .run(o)
    }

    /// `HOST`, `HOST:PORT`, `:PORT`, `[V6]:PORT` or `[V6]`.
    mutating func setAddress(_ text: String) throws(ParseError) {
        var hostPart = Substring(text)
        var portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw ParseError(message: "bad address '\(text)'") }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw ParseError(message: "bad address '\(text)'") }
                portPart = rest.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        if let portPart {
            guard let p = UInt16(portPart), p > 0 else { throw ParseError(message: "bad port '\(portPart)'") }
            port = p
        }
        if !hostPart.isEmpty { host = String(hostPart) }
    }

    /// The name as HELLO accepts it (`NameRule`), dropping other characters
    /// (a login name may hold some); nil when nothing valid is left.
    static func cleanName(_ s: String) -> String? {
        // A lone "." is not a valid name, but it is a valid character of one.
        let kept = s.unicodeScalars.filter { $0 == "." || NameRule.isValid(String($0)) }
        let name = String(String.UnicodeScalarView(kept.prefix(NameRule.maxLength)))
        return NameRule.isValid(name) ? name : nil
    }
}
