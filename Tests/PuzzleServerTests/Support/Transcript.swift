import PuzzleProtocol
@testable import PuzzleServer

/// An example session from `Protocol/examples/*.txt` (format in PROTOCOL.md,
/// "Example transcripts"): the server it needs, then what each client sends and
/// must receive, in order.
struct Transcript {
    /// What one transcript line asks for.
    enum Action: Equatable {
        /// `X> line`: send these bytes (escapes decoded) followed by LF.
        case send([UInt8])
        /// `X< pattern`: the next line the client receives must match.
        case expect(String)
        /// `X~ pattern`: skip the client's lines until one matches.
        case skipUntil(String)
        /// `X!`: the server must close the connection, with no line before.
        case expectClose
        /// `X.`: the client closes its connection.
        case close
    }

    /// One action of one client, with where it was written.
    struct Step: Equatable {
        var line: Int
        var client: String
        var action: Action
        /// The line as written, for recordings.
        var text: String
    }

    /// Where the transcript came from, for messages (`name.txt`).
    var name: String
    /// `@room` lines; empty means the test server's default room.
    var rooms: [RoomSpec] = []
    /// `@seed`; the test server's default when absent.
    var seed: UInt64?
    /// `@set key=value` lines, in order, as config-file keys.
    var settings: [(key: String, value: String, line: Int)] = []
    var steps: [Step] = []
}

/// A transcript that cannot be read, naming the file and line.
struct TranscriptSyntaxError: Error, CustomStringConvertible, Equatable {
    var file: String
    var line: Int
    var reason: String
    var description: String { "\(file):\(line): \(reason)" }
}

extension Transcript {
    /// Parses transcript text. `name` is used in error messages.
    static func parse(_ text: String, name: String) throws(TranscriptSyntaxError) -> Transcript {
        var transcript = Transcript(name: name)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            func fail(_ reason: String) -> TranscriptSyntaxError {
                TranscriptSyntaxError(file: name, line: number, reason: reason)
            }
            var line = Substring(raw)
            if line.last == "\r" { line.removeLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.first == "#" { continue }
            if line.first == "@" {
                try transcript.parseDirective(line.dropFirst(), line: number, fail: fail)
            } else {
                transcript.steps.append(try Transcript.parseStep(line, number: number, fail: fail))
            }
        }
        return transcript
    }

    private mutating func parseDirective(_ text: Substring, line: Int, fail: (String) -> TranscriptSyntaxError) throws(TranscriptSyntaxError) {
        let word = text.prefix { $0 != " " }
        let rest = text.dropFirst(word.count).drop { $0 == " " }
        switch word {
        case "room":
            do {
                rooms.append(try RoomSpec.parse(config: String(rest)))
            } catch {
                throw fail("bad @room: \(error)")
            }
        case "seed":
            guard let seed = UInt64(rest) else { throw fail("@seed needs a whole number, not \"\(rest)\"") }
            self.seed = seed
        case "set":
            guard let equals = rest.firstIndex(of: "="), equals != rest.startIndex else {
                throw fail("@set needs key=value, not \"\(rest)\"")
            }
            settings.append((String(rest[..<equals]), String(rest[rest.index(after: equals)...]), line))
        default:
            throw fail("unknown directive @\(word) (known: @room, @seed, @set)")
        }
    }

    private static func parseStep(_ line: Substring, number: Int, fail: (String) -> TranscriptSyntaxError) throws(TranscriptSyntaxError) -> Step {
        let client = line.prefix { $0.isLetter || $0.isNumber }
        guard !client.isEmpty, let marker = line.dropFirst(client.count).first else {
            throw fail("expected a client name and one of > < ~ ! . (e.g. \"A> PING\")")
        }
        var content = line.dropFirst(client.count + 1)
        if content.first == " " { content.removeFirst() }
        let action: Action
        switch marker {
        case ">":
            action = .send(try decodeEscapes(content, fail: fail))
        case "<", "~":
            guard !content.isEmpty else { throw fail("\(client)\(marker) needs the expected line") }
            action = marker == "<" ? .expect(String(content)) : .skipUntil(String(content))
        case "!", ".":
            guard content.allSatisfy({ $0 == " " }) else { throw fail("nothing may follow \(client)\(marker)") }
            action = marker == "!" ? .expectClose : .close
        default:
            throw fail("unknown marker \"\(marker)\" after client \(client) (known: > < ~ ! .)")
        }
        return Step(line: number, client: String(client), action: action, text: String(line))
    }

    /// Decodes `\xNN` (two hex digits) and `\\` in a line to send; any other
    /// backslash sequence is an error, so a typo cannot silently send something else.
    static func decodeEscapes(_ text: Substring, fail: (String) -> TranscriptSyntaxError) throws(TranscriptSyntaxError) -> [UInt8] {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                continue
            }
            if bytes.first == UInt8(ascii: "\\") {
                bytes.removeFirst()
                out.append(b)
                continue
            }
            let digits = bytes.dropFirst().prefix(2)
            guard bytes.first == UInt8(ascii: "x"), digits.count == 2,
                digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 }),
                let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16)
            else {
                throw fail("bad escape: only \\xNN (two hex digits) and \\\\ are allowed")
            }
            out.append(value)
            bytes.removeFirst(3)
        }
        return out
    }
}
