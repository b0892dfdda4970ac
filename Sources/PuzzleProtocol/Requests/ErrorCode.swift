import PuzzleCore

/// A refusal's stable code (`ERR <code> <message>`): what clients and scripts
/// match on. Typed where the server writes a code and where a client reads
/// one, so that a misspelt code is a compile error; the set stays open (a
/// code a newer server sends still reads, as its raw text).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // Lines and requests.
    public static let unknownVerb = ErrorCode(rawValue: "UNKNOWN_VERB")
    public static let badArgs = ErrorCode(rawValue: "BAD_ARGS")
    public static let badNumber = ErrorCode(rawValue: "BAD_NUMBER")
    public static let badUTF8 = ErrorCode(rawValue: "BAD_UTF8")
    public static let nulByte = ErrorCode(rawValue: "NUL_BYTE")
    public static let lineTooLong = ErrorCode(rawValue: "LINE_TOO_LONG")
    public static let rateLimited = ErrorCode(rawValue: "RATE_LIMITED")
    // Greeting.
    public static let noHello = ErrorCode(rawValue: "NO_HELLO")
    public static let alreadyHello = ErrorCode(rawValue: "ALREADY_HELLO")
    public static let badVersion = ErrorCode(rawValue: "BAD_VERSION")
    public static let badName = ErrorCode(rawValue: "BAD_NAME")
    public static let badToken = ErrorCode(rawValue: "BAD_TOKEN")
    // Rooms.
    public static let notJoined = ErrorCode(rawValue: "NOT_JOINED")
    public static let alreadyJoined = ErrorCode(rawValue: "ALREADY_JOINED")
    public static let unknownRoom = ErrorCode(rawValue: "UNKNOWN_ROOM")
    public static let roomExists = ErrorCode(rawValue: "ROOM_EXISTS")
    public static let tooManyRooms = ErrorCode(rawValue: "TOO_MANY_ROOMS")
    public static let roomFull = ErrorCode(rawValue: "ROOM_FULL")
    public static let watching = ErrorCode(rawValue: "WATCHING")
    public static let badPassword = ErrorCode(rawValue: "BAD_PASSWORD")
    public static let nameTaken = ErrorCode(rawValue: "NAME_TAKEN")
    public static let badPicture = ErrorCode(rawValue: "BAD_PICTURE")
    public static let badSize = ErrorCode(rawValue: "BAD_SIZE")
    public static let storage = ErrorCode(rawValue: "STORAGE")
    // Uploads.
    public static let uploadsOff = ErrorCode(rawValue: "UPLOADS_OFF")
    public static let tooLarge = ErrorCode(rawValue: "TOO_LARGE")
    public static let uploadsFull = ErrorCode(rawValue: "UPLOADS_FULL")
    public static let pictureExists = ErrorCode(rawValue: "PICTURE_EXISTS")
    public static let noUpload = ErrorCode(rawValue: "NO_UPLOAD")
    public static let uploadAborted = ErrorCode(rawValue: "UPLOAD_ABORTED")
    // The core's rules (`PuzzleError.code`).
    public static let unknownPiece = ErrorCode(rawValue: "UNKNOWN_PIECE")
    public static let unknownPlayer = ErrorCode(rawValue: "UNKNOWN_PLAYER")
    public static let held = ErrorCode(rawValue: "HELD")
    public static let notHolder = ErrorCode(rawValue: "NOT_HOLDER")
    public static let holdLimit = ErrorCode(rawValue: "HOLD_LIMIT")
    public static let offTable = ErrorCode(rawValue: "OFF_TABLE")
    public static let rotationOff = ErrorCode(rawValue: "ROTATION_OFF")
    public static let notSolved = ErrorCode(rawValue: "NOT_SOLVED")
    public static let solved = ErrorCode(rawValue: "SOLVED")
    public static let hintUsed = ErrorCode(rawValue: "HINT_USED")
    /// HISTORY or REPLAY of a puzzle the room has no replay of.
    public static let unknownPuzzle = ErrorCode(rawValue: "UNKNOWN_PUZZLE")
    public static let seqMismatch = ErrorCode(rawValue: "SEQ_MISMATCH")

    /// Every code this server writes (PROTOCOL.md's *Errors* lists them).
    public static let known: [ErrorCode] = [
        unknownVerb, badArgs, badNumber, badUTF8, nulByte, lineTooLong, rateLimited, noHello, alreadyHello, badVersion,
        badName, badToken, notJoined, alreadyJoined, unknownRoom, roomExists, tooManyRooms, roomFull, watching,
        badPassword, nameTaken, badPicture, badSize, storage, uploadsOff, tooLarge, uploadsFull, pictureExists, noUpload,
        uploadAborted, unknownPiece, unknownPlayer, held, notHolder, holdLimit,
        offTable, rotationOff, notSolved, solved, hintUsed, seqMismatch, unknownPuzzle,
    ]
}
