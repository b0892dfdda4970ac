import PuzzleProtocol

/// What the browser page says for each error code (`ERR <code> <text>`)
/// when it has no better words: the one copy of the page's friendly texts.
/// The server writes them into the page as `/errors.js` (`script`), so the
/// page keeps no table of its own that could drift from the codes
/// (`ErrorCode.known`, the codes' source); `PageErrorTextsTests` fails when a
/// code has no text here or the page names a code there is none of.
enum PageErrorTexts {
    /// The URL path the page loads the texts from (before `app.js`).
    static let path = "/errors.js"

    /// A text for each code the server sends, in the page's voice (a
    /// browser, photos rather than uploads).
    static let texts: [ErrorCode: String] = [
        .unknownVerb: "The server did not understand that request.",
        .badArgs: "That request was not well formed.",
        .badNumber: "A number was out of range.",
        .badName: "Names are 1 to 24 letters, digits, _ - or . (not . or ..).",
        .badUTF8: "That text was not valid UTF-8.",
        .nulByte: "That text held a NUL character.",
        .lineTooLong: "That was too long for the server.",
        .rateLimited: "Too fast: slow down a little.",
        .noHello: "Not signed in yet.",
        .alreadyHello: "Already signed in.",
        .badVersion: "This server does not speak the page's protocol version.",
        .badToken: "The server did not know this browser's player any more.",
        .notJoined: "Join a room first.",
        .alreadyJoined: "You are in that room already.",
        .unknownRoom: "There is no such room (any more).",
        .roomExists: "A room of that name exists already.",
        .tooManyRooms: "The server has as many rooms as it allows.",
        .roomFull: "Every seat of that room is taken.",
        .watching: "Only watching: join the room to play.",
        .badPassword: "Wrong room password.",
        .nameTaken: "Someone of that name is in the room: pick another name.",
        .badPicture: "No such picture.",
        .badSize: "Sizes are 2 to 100 rows and columns.",
        .storage: "The server could not save that (its disk?): try again.",
        .uploadsOff: "This server takes no photos: pick none to use its own pictures.",
        .tooLarge: "That photo is larger than this server takes.",
        .uploadsFull: "The server has no room for another photo.",
        .pictureExists: "A picture of that name exists already.",
        .noUpload: "The server was not expecting a photo's bytes: try again.",
        .uploadAborted: "The photo did not get through: try again.",
        .unknownPiece: "No such piece.",
        .unknownPlayer: "The server did not know you in this room any more.",
        .held: "Someone else holds that piece.",
        .notHolder: "You do not hold that piece (any more).",
        .holdLimit: "You hold as many pieces as this room allows.",
        .offTable: "That is off the table.",
        .rotationOff: "Pieces do not turn in this room.",
        .notSolved: "The next puzzle comes once this one is solved.",
        .solved: "The puzzle is solved: ask for the next one.",
        .hintUsed: "You have used your hint for this puzzle.",
        .unknownPuzzle: "That solved puzzle's replay is not kept any more.",
        .seqMismatch: "The page fell out of step with the room: it catches up.",
    ]

    /// The texts as the page's script: `window.puzzleErrors`, a frozen
    /// object from code to text, sorted by code (the same bytes, and so the
    /// same ETag, on every start).
    static var script: String {
        let entries = texts.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "  \(jsString($0.key.rawValue)): \(jsString($0.value))," }
        return """
            // The page's text for each error code (ERR <code> <text>), written by the
            // server from its table (PageErrorTexts in PuzzleServer): the page keeps no copy.
            'use strict';
            window.puzzleErrors = Object.freeze({
            \(entries.joined(separator: "\n"))
            });

            """
    }

    /// `text` as a JavaScript string literal. JSON's escapes, plus U+2028 and
    /// U+2029 (line ends to older script parsers) and `<` (so the text could
    /// never close a script element it is pasted into).
    static func jsString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "<", "\u{2028}", "\u{2029}", _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
