import PuzzleCore

/// A refusal at the protocol level, sent as `ERR <code> <message>`.
/// Codes are stable: clients and scripts may match on them.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code) \(message)" }

    /// The reply line, without its terminator.
    public var line: String { "ERR \(code) \(message)" }

    public static func unknownVerb(_ verb: String) -> ProtocolError { .init("UNKNOWN_VERB", "unknown request '\(verb.prefix(32))'; try HELP") }
    public static func badArgs(_ usage: String) -> ProtocolError { .init("BAD_ARGS", "usage: \(usage)") }
    public static func badNumber(_ text: String) -> ProtocolError { .init("BAD_NUMBER", "'\(text.prefix(32))' is not a number in range") }
    public static let badUTF8 = ProtocolError("BAD_UTF8", "line is not valid UTF-8")
    public static let nulByte = ProtocolError("NUL_BYTE", "line contains a NUL byte")
    public static func lineTooLong(_ limit: Int) -> ProtocolError { .init("LINE_TOO_LONG", "line longer than \(limit) bytes was discarded") }
    public static let notHello = ProtocolError("NO_HELLO", "say HELLO <version> <name> first")
    public static let notJoined = ProtocolError("NOT_JOINED", "join a room first (ROOMS lists them)")
    public static func badVersion(_ v: Int) -> ProtocolError { .init("BAD_VERSION", "protocol version \(v) is not supported; this server speaks \(ProtocolVersion.current)") }
    public static let badName = ProtocolError("BAD_NAME", "names are \(NameRule.summary)")
    /// A room name (JOIN's, CREATE's) that breaks the name rule.
    public static func badRoomName(_ name: String) -> ProtocolError {
        .init("BAD_NAME", "room name \"\(name.prefix(32))\" must be \(NameRule.summary)")
    }
    /// A play request from someone watching the room.
    public static func watching(_ room: String) -> ProtocolError {
        .init("WATCHING", "you are watching \(room): JOIN \(room) to play")
    }
    /// JOIN of a room whose seats are all taken.
    public static func roomFull(_ room: String, seats: Int) -> ProtocolError {
        .init("ROOM_FULL", "room '\(room)' has all its \(seats) players: WATCH \(room) to watch")
    }
    /// A version 2 request on a version 1 connection.
    public static func versionTwoOnly(_ what: String) -> ProtocolError {
        .init("BAD_VERSION", "\(what) needs protocol version 2 (HELLO 2 <name>)")
    }
    public static func unknownRoom(_ r: String) -> ProtocolError { .init("UNKNOWN_ROOM", "no room named '\(r.prefix(32))'") }
    public static func roomExists(_ r: String) -> ProtocolError { .init("ROOM_EXISTS", "room '\(r)' already exists") }
    public static let badPassword = ProtocolError("BAD_PASSWORD", "wrong room password")
    public static func passwordNeeded(_ room: String) -> ProtocolError {
        .init("BAD_PASSWORD", "room '\(room)' needs a password: JOIN \(room) <password>")
    }
    public static let rateLimited = ProtocolError("RATE_LIMITED", "too many drags and keeps per second; slow down")
    public static let badToken = ProtocolError("BAD_TOKEN", "unknown resume token; HELLO 2 <name> without one starts a new player")
    public static func nameTaken(_ name: String) -> ProtocolError {
        ProtocolError("NAME_TAKEN", "a player named \(name) is already in this room; pick another name")
    }
    public static let alreadyGreeted = ProtocolError("ALREADY_HELLO", "HELLO was already accepted on this connection")
    public static func badPicture(_ why: String) -> ProtocolError { .init("BAD_PICTURE", why) }
    /// The server could not write what the request needed to disk (a full
    /// disk, an I/O error); the request changed nothing.
    public static func storage(_ why: String) -> ProtocolError { .init("STORAGE", why) }
    public static let tooManyRooms = ProtocolError("TOO_MANY_ROOMS", "the server hosts as many rooms as it allows")
    public static let alreadyInRoom = ProtocolError("ALREADY_JOINED", "leave your current room first")
    /// Version 2's JOIN of the room the player is in (a switch to it would be no switch).
    public static func alreadyInThisRoom(_ room: String) -> ProtocolError {
        .init("ALREADY_JOINED", "you are in room '\(room.prefix(32))' already")
    }

    /// The protocol form of a core refusal; `name` turns player ids into names.
    public static func core(_ e: PuzzleError, name: (PlayerID) -> String) -> ProtocolError {
        ProtocolError(e.code, e.message(name: name))
    }
}

/// The versions this code speaks. Version 1 is the original protocol;
/// version 2 adds resume tokens (HELLO), the extended snapshot and the
/// `ended` notice.
public enum ProtocolVersion {
    public static let current = 2
    public static let supported: ClosedRange<Int> = 1...2
}

/// Version 2's resume token: a secret that brings a player back.
public enum ResumeToken {
    /// 32 lowercase hex digits (128 bits).
    public static func isWellFormed(_ token: some StringProtocol) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
