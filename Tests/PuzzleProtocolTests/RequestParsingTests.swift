import PuzzleCore
import Testing
@testable import PuzzleProtocol

@Suite struct RequestParsingTests {
    private func parse(_ text: String) -> Result<Request, ProtocolError>? { Request.parse(text) }
    private func parseBytes(_ bytes: [UInt8]) -> Result<Request, ProtocolError>? { Request.parse(bytes) }
    private func usage(_ verb: String) -> Result<Request, ProtocolError> { .failure(.badArgs(Request.usage[verb]!)) }
    private func code(_ text: String) -> String? {
        if case .failure(let e)? = parse(text) { return e.code.rawValue }
        return nil
    }

    @Test func everyVerbWithoutArguments() {
        let plain: [(String, Request)] = [
            ("ROOMS", .rooms), ("LEAVE", .leave), ("SYNC", .sync), ("HINT", .hint), ("NEXT", .next),
            ("WHO", .who), ("STATS", .stats), ("DIGEST", .digest), ("HELP", .help), ("QUIT", .quit),
            ("PING", .ping("")), ("ROTATE", .rotate(nil)), ("DROP", .drop(nil)), ("RELEASE", .release(nil)), ("KEEP", .keep(nil)),
        ]
        for (text, request) in plain {
            #expect(parse(text) == .success(request), "\(text)")
            #expect(request.verb == text)
            #expect(Request.usage[request.verb] != nil)
        }
        #expect(parse("BYE") == .success(.quit))
        #expect(parse("exit") == .success(.quit))
    }

    @Test func everyVerbWithArguments() {
        #expect(parse("HELLO 1 alice") == .success(.hello(version: 1, name: "alice")))
        #expect(parse("PING abc") == .success(.ping("abc")))
        #expect(parse("JOIN lobby") == .success(.join(room: "lobby", password: nil)))
        #expect(parse("JOIN lobby s3cret") == .success(.join(room: "lobby", password: "s3cret")))
        #expect(parse("GRAB 12") == .success(.grab(12)))
        #expect(parse("DRAG 3 40 -8") == .success(.drag(3, Point(x: 40, y: -8))))
        #expect(parse("DRAG 40 8") == .success(.drag(nil, Point(x: 40, y: 8))))
        #expect(parse("ROTATE 7") == .success(.rotate(7)))
        #expect(parse("DROP 0") == .success(.drop(0)))
        #expect(parse("RELEASE 1000000") == .success(.release(1_000_000)))
        #expect(parse("KEEP 12") == .success(.keep(12)))
        #expect(parse("SAY hi") == .success(.say("hi")))
        #expect(parse("CREATE r1 swap 3x4") == .success(.create(RoomSpec(name: "r1", kind: .swap, rows: 3, cols: 4))))
        #expect(parse("HELP CREATE") == .success(.help))
    }

    @Test func verbsAreCaseInsensitiveArgumentsAreNot() {
        #expect(parse("hello 1 Alice") == .success(.hello(version: 1, name: "Alice")))
        #expect(parse("GrAb 2") == .success(.grab(2)))
        #expect(parse("join Lobby PassWord") == .success(.join(room: "Lobby", password: "PassWord")))
        #expect(parse("say Hello World") == .success(.say("Hello World")))
        #expect(parse("create R swap 2X3") == .success(.create(RoomSpec(name: "R", kind: .swap, rows: 2, cols: 3))))
        #expect(parse("create R JIGSAW 2x3 ROTATION=ON") ==
                .success(.create(RoomSpec(name: "R", kind: .jigsaw, rows: 2, cols: 3, rotation: true))))
    }

    @Test func extraSpacesBetweenAndAroundWords() {
        #expect(parse("   GRAB    5   ") == .success(.grab(5)))
        #expect(parse("  DRAG  1   2  3 ") == .success(.drag(1, Point(x: 2, y: 3))))
        #expect(parse(" HELLO  1   bob") == .success(.hello(version: 1, name: "bob")))
        #expect(parse("  ROOMS  ") == .success(.rooms))
    }

    @Test func emptyAndBlankLinesAreNotRequests() {
        #expect(parse("") == nil)
        #expect(parse("     ") == nil)
        #expect(parseBytes([]) == nil)
        #expect(parseBytes(" ".bytes) == nil)
    }

    @Test func wrongArgumentCountsQuoteTheUsage() {
        let cases: [(String, String)] = [
            ("HELLO", "HELLO"), ("HELLO 1", "HELLO"), ("HELLO 1 a b", "HELLO"),
            ("ROOMS x", "ROOMS"), ("JOIN", "JOIN"), ("JOIN a b c", "JOIN"),
            ("LEAVE now", "LEAVE"), ("SYNC 1", "SYNC"), ("GRAB", "GRAB"), ("GRAB 1 2", "GRAB"),
            ("DRAG", "DRAG"), ("DRAG 1", "DRAG"), ("DRAG 1 2 3 4", "DRAG"),
            ("ROTATE 1 2", "ROTATE"), ("DROP 1 2", "DROP"), ("RELEASE 1 2", "RELEASE"),
            ("HINT me", "HINT"), ("NEXT 2", "NEXT"), ("SAY", "SAY"), ("SAY    ", "SAY"),
            ("WHO all", "WHO"), ("STATS x", "STATS"), ("DIGEST x", "DIGEST"), ("QUIT now", "QUIT"),
            ("CREATE", "CREATE"), ("CREATE r", "CREATE"), ("CREATE r swap", "CREATE"),
        ]
        for (text, verb) in cases {
            #expect(parse(text) == usage(verb), "\(text)")
        }
        // The usage text is what a user needs to fix the request.
        #expect(ProtocolError.badArgs(Request.usage["GRAB"]!).line == "ERR BAD_ARGS usage: GRAB <piece>")
        #expect(parse("bye now") == usage("QUIT"))
    }

    @Test func nonNumbersAndOutOfRangeNumbers() {
        #expect(parse("GRAB x") == .failure(.badNumber("x")))
        #expect(parse("GRAB -1") == .failure(.badNumber("-1")))
        #expect(parse("GRAB 1000001") == .failure(.badNumber("1000001")))
        #expect(parse("GRAB 1.5") == .failure(.badNumber("1.5")))
        #expect(parse("GRAB 99999999999999999999999") == .failure(.badNumber("99999999999999999999999")))
        // Decimal digits only: no sign but a minus, no hex, no exponent.
        #expect(parse("GRAB +3") == .failure(.badNumber("+3")))
        #expect(parse("DRAG 1 +4 4") == .failure(.badNumber("+4")))
        #expect(parse("GRAB 0x10") == .failure(.badNumber("0x10")))
        #expect(parse("GRAB 1e3") == .failure(.badNumber("1e3")))
        #expect(parse("DRAG 1 - 4") == .failure(.badNumber("-")))
        #expect(parse("DRAG 1 -4 4") == .success(.drag(1, Point(x: -4, y: 4))))
        #expect(parse("HELLO x bob") == .failure(.badNumber("x")))
        #expect(parse("HELLO -1 bob") == .failure(.badNumber("-1")))
        #expect(parse("DRAG 1 2 y") == .failure(.badNumber("y")))
        #expect(parse("DRAG 1 2000000") == .failure(.badNumber("2000000")))
        #expect(parse("DRAG -1 2 3") == .failure(.badNumber("-1")))
        #expect(parse("ROTATE r") == .failure(.badNumber("r")))
        #expect(parse("DROP -3") == .failure(.badNumber("-3")))
        #expect(parse("RELEASE ten") == .failure(.badNumber("ten")))
        // A room size is a shape (BAD_ARGS) within the board sizes (BAD_SIZE), like the config's.
        #expect(code("CREATE r swap ax4") == "BAD_ARGS")
        #expect(code("CREATE r swap 4x1001") == "BAD_SIZE")
        #expect(code("CREATE r swap 1x2") == "BAD_SIZE")
        // The message quotes at most 32 characters of the offending text.
        let long = String(repeating: "9", count: 100)
        if case .failure(let e)? = parse("GRAB \(long)") {
            #expect(e.code == .badNumber)
            #expect(e.message.count < 70)
        } else {
            Issue.record("a 100-digit piece was accepted")
        }
    }

    @Test func negativeCoordinatesAreAllowedInDrags() {
        #expect(parse("DRAG -4 -1000000") == .success(.drag(nil, Point(x: -4, y: -1_000_000))))
        #expect(parse("DRAG 0 -1 -2") == .success(.drag(0, Point(x: -1, y: -2))))
        #expect(parse("DRAG 0 -1000001 0") == .failure(.badNumber("-1000001")))
    }

    @Test func unknownVerbs() {
        #expect(parse("FLY away") == .failure(.unknownVerb("FLY")))
        #expect(parse("fly") == .failure(.unknownVerb("FLY")))
        #expect(code("GRAB5") == "UNKNOWN_VERB")
        #expect(code("\tGRAB 5") == "UNKNOWN_VERB")
        let e = ProtocolError.unknownVerb(String(repeating: "Z", count: 500))
        #expect(e.message.count < 80)
    }

    @Test func bytesThatAreNotUTF8OrHoldNUL() {
        #expect(parseBytes([0x53, 0x41, 0x59, 0x20, 0xFF]) == .failure(.badUTF8))
        #expect(parseBytes([0xC3]) == .failure(.badUTF8))
        // An overlong encoding of '/' and a lone surrogate are not UTF-8 either.
        #expect(parseBytes("SAY ".bytes + [0xC0, 0xAF]) == .failure(.badUTF8))
        #expect(parseBytes("SAY ".bytes + [0xED, 0xA0, 0x80]) == .failure(.badUTF8))
        #expect(parseBytes("SAY a\u{0}b".bytes) == .failure(.nulByte))
        #expect(parseBytes([0]) == .failure(.nulByte))
        // NUL wins even next to bad UTF-8.
        #expect(parseBytes([0xFF, 0]) == .failure(.nulByte))
        #expect(parseBytes("SAY héllo ☃".bytes) == .success(.say("héllo ☃")))
        #expect(Request.parse(ArraySlice("GRAB 4".bytes)) == .success(.grab(4)))
    }

    @Test func namesAreValidated() {
        #expect(code("HELLO 1 b@d") == "BAD_NAME")
        #expect(code("HELLO 1 \(String(repeating: "a", count: 25))") == "BAD_NAME")
        #expect(parse("HELLO 1 \(String(repeating: "a", count: 24))") == .success(.hello(version: 1, name: String(repeating: "a", count: 24))))
        #expect(code("HELLO 1 héllo") == "BAD_NAME")
        #expect(parse("HELLO 1 A-b_c.9") == .success(.hello(version: 1, name: "A-b_c.9")))
        #expect(code("CREATE bad/name swap 2x2") == "BAD_NAME")
        #expect(NameRule.isValid("x"))
        #expect(!NameRule.isValid(""))
        #expect(!NameRule.isValid("a b"))
        #expect(!NameRule.isValid("a=b"))
    }

    @Test func createOptions() {
        let full = "CREATE big jigsaw 10x12 picture=rings rotation=on password=pw lease=5000 hint=3000 hold=3"
        #expect(parse(full) == .success(.create(RoomSpec(name: "big", kind: .jigsaw, rows: 10, cols: 12, picture: "rings",
                                                               rotation: true, password: "pw", leaseMillis: 5_000,
                                                               hintMillis: 3_000, maxHeld: 3))))
        #expect(parse("CREATE r jigsaw 2x2 rotation=off") == .success(.create(RoomSpec(name: "r", kind: .jigsaw, rows: 2, cols: 2))))
        #expect(parse("CREATE r jigsaw 2x2 ROTATION=On") ==
                .success(.create(RoomSpec(name: "r", kind: .jigsaw, rows: 2, cols: 2, rotation: true))))
        // A value may itself hold '='; only the first one separates.
        #expect(parse("CREATE r swap 2x2 password=a=b") ==
                .success(.create(RoomSpec(name: "r", kind: .swap, rows: 2, cols: 2, password: "a=b"))))
        // The same rules and reasons as a config file's room line (RoomSpec).
        #expect(parse("CREATE r jigsaw 2x2 rotation=yes") == .failure(ProtocolError(.badArgs, "rotation must be on or off, not \"yes\"")))
        #expect(code("CREATE r swap 2x2 rotation=on") == "BAD_ARGS")
        #expect(code("CREATE r swap 2x2 rotation=maybe") == "BAD_ARGS")
        #expect(code("CREATE r swap 2x2 colour=red") == "BAD_ARGS")
        #expect(code("CREATE r swap 2x2 picture") == "BAD_ARGS")
        #expect(code("CREATE r swap 2x2 picture=") == "BAD_PICTURE")
        #expect(code("CREATE r swap 2x2 picture=a picture=b") == "BAD_ARGS")
        #expect(code("CREATE r swap 2x2 password=" + String(repeating: "p", count: 65)) == "BAD_ARGS")
        #expect(code("CREATE r square 2x2") == "BAD_ARGS")
        #expect(code("CREATE r swap 2by2") == "BAD_ARGS")
        #expect(code("CREATE r swap 2x2x2") == "BAD_ARGS")
        #expect(code("CREATE r swap 2xx2") == "BAD_ARGS")
        #expect(parse("CREATE r swap x2x2") != .success(.create(RoomSpec(name: "r", kind: .swap, rows: 2, cols: 2))))
        #expect(parse("CREATE r swap 2x2 lease=99") == .failure(.badNumber("99")))
        #expect(parse("CREATE r swap 2x2 lease=3600001") == .failure(.badNumber("3600001")))
        #expect(parse("CREATE r swap 2x2 hint=60001") == .failure(.badNumber("60001")))
        #expect(parse("CREATE r swap 2x2 hint=-1") == .failure(.badNumber("-1")))
        #expect(parse("CREATE r swap 2x2 hold=0") == .failure(.badNumber("0")))
        #expect(parse("CREATE r swap 2x2 hold=101") == .failure(.badNumber("101")))
        #expect(parse("CREATE r swap 2x2 hold=many") == .failure(.badNumber("many")))
        #expect(parse("CREATE r swap 2x2 hint=0 hold=1 lease=100") ==
                .success(.create(RoomSpec(name: "r", kind: .swap, rows: 2, cols: 2, leaseMillis: 100, hintMillis: 0, maxHeld: 1))))
    }

    @Test func pingTokenIsEchoedWithItsSpaces() {
        #expect(parse("PING a b  c") == .success(.ping("a b  c")))
        #expect(parse("  ping   token with  spaces ") == .success(.ping("token with  spaces ")))
        #expect(parse("PING      ") == .success(.ping("")))
        #expect(Request.ping("").line == "PING")
        #expect(Request.ping("x y").line == "PING x y")
    }

    @Test func sayTextIsKeptVerbatim() {
        #expect(parse("SAY hello   world") == .success(.say("hello   world")))
        #expect(parse("say  a  b  ") == .success(.say("a  b  ")))
        #expect(parse("SAY GRAB 5") == .success(.say("GRAB 5")))
        #expect(parse("SAY ünïcödé  ☃") == .success(.say("ünïcödé  ☃")))
    }

    static let roundTrip: [Request] = [
        .hello(version: 1, name: "alice"), .hello(version: 1_000_000, name: "X.y-z_0"),
        .ping(""), .ping("tok"), .ping("a  b "), .rooms,
        .create(RoomSpec(name: "r", kind: .swap, rows: 2, cols: 3)),
        .create(RoomSpec(name: "big", kind: .jigsaw, rows: 100, cols: 100, picture: "waves", rotation: true,
                            password: "p=w", leaseMillis: 100, hintMillis: 0, maxHeld: 100)),
        .create(RoomSpec(name: "q", kind: .jigsaw, rows: 4, cols: 4, hintMillis: 60_000)),
        .join(room: "lobby", password: nil), .join(room: "lobby", password: "secret"),
        .leave, .sync, .grab(0), .grab(1_000_000),
        .drag(nil, Point(x: 0, y: 0)), .drag(nil, Point(x: -5, y: 7)), .drag(3, Point(x: 12, y: -1_000_000)),
        .rotate(nil), .rotate(4), .drop(nil), .drop(9), .release(nil), .release(2),
        .hint, .next, .say("hi"), .say("multiple   spaces  inside "), .say("ünï ☃"),
        .who, .stats, .digest, .help, .quit,
    ]

    @Test(arguments: roundTrip)
    func lineRoundTrips(_ request: Request) {
        #expect(Request.parse(request.line) == .success(request), "\(request.line)")
        #expect(Request.parse(request.line.bytes) == .success(request))
        #expect(request.line.hasPrefix(request.verb))
    }

    /// Whatever a random line parses to must print as a line that parses back to
    /// the same request: what the client sends is what the server understands.
    @Test func parsedRequestsReprintFaithfully() {
        var rng = SeededGenerator(seed: 11)
        let words = ["HELLO", "ping", "CREATE", "join", "GRAB", "drag", "ROTATE", "DROP", "release", "SAY", "HELP",
                     "bye", "1", "-3", "+4", "007", "r", "swap", "jigsaw", "3x4", "picture=p", "rotation=on",
                     "hold=2", "lease=200", "hint=5", "password=a=b", " ", "é", "x", "99999999999999"]
        var parsed = 0
        for _ in 0..<5_000 {
            var line = ""
            for _ in 0..<(1 + rng.next() % 6) {
                line += words[Int(rng.next() % UInt64(words.count))]
                line += rng.next() % 4 == 0 ? "  " : " "
            }
            guard case .success(let request)? = Request.parse(line) else { continue }
            parsed += 1
            #expect(Request.parse(request.line) == .success(request), "\(line) -> \(request.line)")
        }
        #expect(parsed > 200)
    }
}
