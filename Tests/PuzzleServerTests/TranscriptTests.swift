import Foundation
import Testing
@testable import PuzzleServer

/// Replays every `Protocol/examples/*.txt` against a real server, and checks the
/// transcript reader and matcher themselves.
@Suite struct TranscriptTests {
    /// `Protocol/examples`, found from this file (through a symlinked test
    /// directory too, as in a package of links).
    static var examplesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/examples")
    }

    static func exampleNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted()
    }

    static func load(_ name: String) throws -> Transcript {
        let text = try String(contentsOf: examplesDirectory.appendingPathComponent(name), encoding: .utf8)
        return try Transcript.parse(text, name: name)
    }

    @Test func theDocumentedExamplesExist() {
        let names = Set(Self.exampleNames())
        for expected in ["two-players.txt", "race.txt", "drop-and-solve.txt", "jigsaw-drop.txt", "bad-input.txt", "hand-session.txt"] {
            #expect(names.contains(expected), "missing \(Self.examplesDirectory.path)/\(expected)")
        }
    }

    /// Set `TRANSCRIPT_RECORD=DIR` to write what the server really says for each
    /// example into DIR instead of checking (for writing transcripts).
    @Test(arguments: exampleNames())
    func exampleReplaysAgainstARealServer(_ name: String) throws {
        let transcript = try Self.load(name)
        #expect(!transcript.steps.isEmpty, "\(name) has no steps")
        var runner = TranscriptRunner(transcript)
        if let dir = ProcessInfo.processInfo.environment["TRANSCRIPT_RECORD"] {
            runner.record = true
            try? runner.run()
            try (runner.recording.joined(separator: "\n") + "\n").write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            return
        }
        do {
            try runner.run()
        } catch {
            Issue.record("\(error)")
        }
    }
}

@Suite struct TranscriptFormatTests {
    @Test func parsesHeaderAndEveryKindOfStep() throws {
        let text = """
            # a comment
            @room tiles swap 2x2 picture=quilt
            @seed 42
            @set max_line_length=64

            A> PING a\\x00b\\\\
            A< PONG *
            B~ OK joined tiles ...
            A!
            B.
            """
        let t = try Transcript.parse(text, name: "t.txt")
        #expect(t.rooms.map(\.name) == ["tiles"] && t.rooms[0].kind == .swap && t.rooms[0].picture == "quilt")
        #expect(t.seed == 42)
        #expect(t.settings.map { "\($0.key)=\($0.value)@\($0.line)" } == ["max_line_length=64@4"])
        #expect(t.steps.map(\.line) == [6, 7, 8, 9, 10])
        #expect(t.steps.map(\.client) == ["A", "A", "B", "A", "B"])
        #expect(t.steps.map(\.action) == [
            .send(Array("PING a".utf8) + [0] + Array("b\\".utf8)),
            .expect("PONG *"), .skipUntil("OK joined tiles ..."), .expectClose, .close,
        ])
    }

    @Test(arguments: [
        ("@nonsense 1", 1), ("@seed x", 1), ("@room lobby round 3x3", 1), ("@set nokey", 1),
        ("A> ok\nA? what", 2), ("A<", 1), ("A> bad \\q escape", 1), ("A> short \\x4", 1), ("A> \\xZZ", 1),
        ("A! trailing", 1), ("> no client", 1),
    ])
    func rejectsMalformedLinesNamingTheLine(_ text: String, _ line: Int) {
        #expect {
            try Transcript.parse(text, name: "bad.txt")
        } throws: { error in
            (error as? TranscriptSyntaxError).map { $0.file == "bad.txt" && $0.line == line } ?? false
        }
    }

    @Test func wordsMatchExactlyExceptWildcards() {
        #expect(Transcript.matches("OK grabbed 4", "OK grabbed 4"))
        #expect(!Transcript.matches("OK grabbed 4", "OK grabbed 5"))
        #expect(!Transcript.matches("OK grabbed 4", "OK grabbed 4 extra"))
        #expect(!Transcript.matches("OK grabbed 4 extra", "OK grabbed 4"))
        #expect(Transcript.matches("EV * solved 0 *", "EV 9 solved 0 1234"))
        #expect(!Transcript.matches("EV * solved 0 *", "EV 9 solved 1 1234"))
        #expect(!Transcript.matches("EV * solved 0 *", "EV 9 solved 0"))
        #expect(Transcript.matches("OK hello version=1 ...", "OK hello version=1 id=1 name=a server=puzzle-room"))
        #expect(Transcript.matches("OK ...", "OK"))
        #expect(!Transcript.matches("OK ...", "ERR X"))
        // Spacing inside a line counts; `*` never matches the empty word between two spaces.
        #expect(!Transcript.matches("EV 3 say 1 a b", "EV 3 say 1 a  b"))
        #expect(!Transcript.matches("EV 3 say 1 a * b", "EV 3 say 1 a  b"))
        #expect(Transcript.matches("EV 3 say 1 a  b", "EV 3 say 1 a  b"))
        // `...` only means "the rest" as the last word.
        #expect(!Transcript.matches("A ... C", "A B C"))
    }

    @Test func aMismatchFailsNamingTheLineWithExpectedAndGot() throws {
        let t = try Transcript.parse("A> PING one\nA< PONG two\n", name: "mismatch.txt")
        var runner = TranscriptRunner(t)
        #expect {
            try runner.run()
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("mismatch.txt:2: ") && text.contains("`PONG two`") && text.contains("`PONG one`")
        }
    }

    @Test func anUnreadLineAtTheEndFails() throws {
        // The server sends PONG twice; the transcript only reads one.
        let t = try Transcript.parse("A> PING 1\nA> PING 2\nA< PONG 1\n", name: "extra.txt")
        var check = TranscriptRunner(t)
        #expect(throws: TranscriptFailure.self) { try check.run() }
        // ... whereas reading it passes.
        let complete = try Transcript.parse("A> PING 1\nA> PING 2\nA< PONG 1\nA< PONG 2\nA> QUIT\nA< OK bye\nA!\n", name: "complete.txt")
        var pass = TranscriptRunner(complete)
        try pass.run()
    }

    @Test func expectingACloseFailsWhileTheConnectionStaysOpen() throws {
        let t = try Transcript.parse("A> PING\nA< PONG\nA!\n", name: "open.txt")
        var runner = TranscriptRunner(t)
        runner.timeout = 0.3
        #expect {
            try runner.run()
        } throws: { error in
            "\(error)".hasPrefix("open.txt:3: ")
        }
    }

    @Test func headerSettingsReachTheServer() throws {
        // With the smallest limit, 64 bytes, a 70-byte PING is too long.
        let long = "PING " + String(repeating: "x", count: 65)
        let t = try Transcript.parse("@set max_line_length=64\nA> \(long)\nA< ERR LINE_TOO_LONG ...\nA> PING ok\nA< PONG ok\n", name: "set.txt")
        var runner = TranscriptRunner(t)
        try runner.run()
        let unknown = try Transcript.parse("@set no_such_key=1\nA> PING\n", name: "unknown.txt")
        var bad = TranscriptRunner(unknown)
        #expect(throws: TranscriptFailure.self) { try bad.run() }
    }
}
