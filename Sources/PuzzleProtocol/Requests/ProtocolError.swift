import PuzzleCore

/// A refusal at the protocol level, sent as `ERR <code> <message>`.
/// Codes are stable: clients and scripts may match on them.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue) \(message)" }

    /// The reply line, without its terminator.
    public var line: String { "ERR \(code.rawValue) \(message)" }

    public static func unknownVerb(_ verb: String) -> ProtocolError { .init(.unknownVerb, "unknown request '\(verb.prefix(32))'; try HELP") }
    public static func badArgs(_ usage: String) -> ProtocolError { .init(.badArgs, "usage: \(usage)") }
    public static func badNumber(_ text: String) -> ProtocolError { .init(.badNumber, "'\(text.prefix(32))' is not a number in range") }
    public static let badUTF8 = ProtocolError(.badUTF8, "line is not valid UTF-8")
    public static let nulByte = ProtocolError(.nulByte, "line contains a NUL byte")
    public static func lineTooLong(_ limit: Int) -> ProtocolError { .init(.lineTooLong, "line longer than \(limit) bytes was discarded") }
    public static let notHello = ProtocolError(.noHello, "say HELLO <version> <name> first")
    public static let notJoined = ProtocolError(.notJoined, "join a room first (ROOMS lists them)")
    public static func badVersion(_ v: Int) -> ProtocolError { .init(.badVersion, "protocol version \(v) is not supported; this server speaks \(ProtocolVersion.current)") }
    public static let badName = ProtocolError(.badName, "names are \(NameRule.summary)")
    /// A room name (JOIN's, CREATE's) that breaks the name rule.
    public static func badRoomName(_ name: String) -> ProtocolError {
        .init(.badName, "room name \"\(name.prefix(32))\" must be \(NameRule.summary)")
    }
    /// The name an upload would give its picture breaks the name rule
    /// (PROTOCOL.md, *Names*): `BAD_NAME`, as for a player or room name. (A
    /// `picture=` that breaks it names no picture: `BAD_PICTURE`.)
    public static func badPictureName(_ name: String) -> ProtocolError {
        .init(.badName, "picture name \"\(name.prefix(32))\" must be \(NameRule.summary)")
    }
    /// A play request from someone watching the room.
    public static func watching(_ room: String) -> ProtocolError {
        .init(.watching, "you are watching \(room): JOIN \(room) to play")
    }
    /// JOIN of a room whose seats are all taken.
    public static func roomFull(_ room: String, seats: Int) -> ProtocolError {
        .init(.roomFull, "room '\(room)' has all its \(seats) players: WATCH \(room) to watch")
    }
    /// A version 2 request on a version 1 connection.
    public static func versionTwoOnly(_ what: String) -> ProtocolError {
        .init(.badVersion, "\(what) needs protocol version 2 (HELLO 2 <name>)")
    }
    /// HISTORY or REPLAY of a puzzle the room keeps no replay of.
    public static func unknownPuzzle(_ puzzle: Int, room: String, kept: [Int]) -> ProtocolError {
        let list = kept.isEmpty ? "none yet" : kept.suffix(8).map(String.init).joined(separator: " ")
        return .init(.unknownPuzzle, "room '\(room)' keeps no replay of puzzle \(puzzle) (kept: \(list); HISTORY lists them)")
    }
    public static func unknownRoom(_ r: String) -> ProtocolError { .init(.unknownRoom, "no room named '\(r.prefix(32))'") }
    public static func roomExists(_ r: String) -> ProtocolError { .init(.roomExists, "room '\(r)' already exists") }
    public static let badPassword = ProtocolError(.badPassword, "wrong room password")
    public static func passwordNeeded(_ room: String) -> ProtocolError {
        .init(.badPassword, "room '\(room)' needs a password: JOIN \(room) <password>")
    }
    public static let rateLimited = ProtocolError(.rateLimited, "too many drags and keeps per second; slow down")
    public static let badToken = ProtocolError(.badToken, "unknown resume token; HELLO 2 <name> without one starts a new player")
    public static func nameTaken(_ name: String) -> ProtocolError {
        ProtocolError(.nameTaken, "a player named \(name) is already in this room; pick another name")
    }
    public static let alreadyGreeted = ProtocolError(.alreadyHello, "HELLO was already accepted on this connection")
    public static func badPicture(_ why: String) -> ProtocolError { .init(.badPicture, why) }
    public static let uploadsOff = ProtocolError(.uploadsOff, "this server takes no uploaded pictures; CREATE with one of its pictures")
    /// An upload larger than the server takes.
    public static func tooLarge(_ bytes: Int, limit: Int) -> ProtocolError {
        .init(.tooLarge, "\(bytes) bytes is more than the \(limit) bytes an uploaded picture may have")
    }
    /// A name another picture has (a host's, or an upload of other bytes).
    public static func pictureExists(_ name: String, _ whose: String) -> ProtocolError {
        .init(.pictureExists, "a picture named '\(name)' exists already (\(whose)); upload under another name")
    }
    /// A DATA line with no upload open.
    public static let noUpload = ProtocolError(.noUpload, "no upload is open: UPLOAD <picture> <bytes> first, then DATA lines once it says go")
    /// An upload that ended before its bytes were all there.
    public static func uploadAborted(_ name: String, _ why: String) -> ProtocolError {
        .init(.uploadAborted, "upload of '\(name)' aborted: \(why); nothing was stored")
    }
    /// The server could not write what the request needed to disk (a full
    /// disk, an I/O error); the request changed nothing.
    public static func storage(_ why: String) -> ProtocolError { .init(.storage, why) }
    public static let tooManyRooms = ProtocolError(.tooManyRooms, "the server hosts as many rooms as it allows")
    public static let alreadyInRoom = ProtocolError(.alreadyJoined, "leave your current room first")
    /// Version 2's JOIN of the room the player is in (a switch to it would be no switch).
    public static func alreadyInThisRoom(_ room: String) -> ProtocolError {
        .init(.alreadyJoined, "you are in room '\(room.prefix(32))' already")
    }

    /// The protocol form of a core refusal; `name` turns player ids into names.
    public static func core(_ e: PuzzleError, name: (PlayerID) -> String) -> ProtocolError {
        ProtocolError(ErrorCode(rawValue: e.code), e.message(name: name))
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
