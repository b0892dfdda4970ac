import Foundation
import PuzzleCore
import Testing
@testable import PuzzleProtocol

@Suite struct ReplyCodecTests {
    static let p = PlayerID(4)

    /// One reply of every kind, with every optional and every drop outcome.
    static let everyReply: [Reply] = [
        .pong(token: ""), .pong(token: "t-1"),
        .hello(version: 1, player: p, name: "alice"),
        .help(count: 21), .rooms(count: 0), .who(count: 3),
        .stats([ReplyField("connections", "2"), ReplyField("rss_bytes", "1234")]),
        .created(room: "r1"), .created(room: "r2", rows: 6, cols: 9, asked: 48), .joined(room: "lobby", player: p, seq: 17), .left(room: "lobby"),
        .synced(seq: 9, digest: "00ff00ff00ff00ff"),
        .digest(DigestSummary(seq: 3, value: "0123456789abcdef", correct: 2, total: 9, held: 1, puzzle: 0)),
        .grabbed(piece: 0),
        .dragged(piece: 5, to: Point(x: 17, y: -3), target: nil),
        .dragged(piece: 5, to: Point(x: 0, y: 40), target: Cell(row: 2, col: 9)),
        .rotated(piece: 8, rotation: 3),
        .dropped(piece: 1, outcome: .placed(Cell(row: 4, col: 1)), solved: false),
        .dropped(piece: 1, outcome: .onTable(Point(x: 33, y: 2)), solved: false),
        .dropped(piece: 2, outcome: .swapped(Cell(row: 0, col: 0)), solved: true),
        .dropped(piece: 2, outcome: .returned, solved: false),
        .dropped(piece: 3, outcome: .placed(Cell(row: 1, col: 1)), solved: true),
        .released(piece: 7), .kept(piece: 7, leaseLeftMillis: 30_000), .hint(millis: 2000),
        .next(puzzle: 2, kind: .swap, rows: 5, cols: 6),
        .said, .bye,
        .hello(version: 2, player: p, name: "bob", token: "5f0c00000000000000000000000000e1"),
        .joined(room: "den", player: p, seq: 4_611_686_018_427_387_904, run: "0123456789abcdef", missed: 3),
        .joined(room: "den", player: p, seq: 0, run: "0123456789abcdef"),
        .watching(room: "den", seq: 12, run: "0123456789abcdef"),
        .synced(seq: 9, digest: "00ff00ff00ff00ff", run: "0123456789abcdef", missed: 0),
        .picture(width: 32, height: 24, hash: "9a0b"), .layout(pieces: 16, puzzle: 2, seed: UInt64.max),
        .history(count: 2), .replay(puzzle: 0, moves: 5), .replay(puzzle: 1, moves: 8192, more: 8192),
        .uploadReady(name: "trip", bytes: 1234, lineCharacters: 4096),
        .uploaded(name: "trip", width: 640, height: 480, sha256: "ab12"),
        .stats([]), .kept(piece: 0, leaseLeftMillis: 0), .hint(millis: 0),
        .error(ProtocolError(.held, "piece 3 is held by alice (#1)")),
    ]

    @Test func everyReplyRoundTrips() {
        for reply in Self.everyReply {
            let line = ReplyCodec.line(reply)
            #expect(ReplyCodec.decode(line[...]) == reply, "\(line)")
        }
    }

    @Test func linesAreTheDocumentedOnes() {
        #expect(ReplyCodec.line(.dragged(piece: 5, to: Point(x: 17, y: -3), target: nil)) == "OK dragged 5 17 -3 -")
        #expect(ReplyCodec.line(.dropped(piece: 2, outcome: .swapped(Cell(row: 1, col: 1)), solved: true)) == "OK dropped 2 swapped cell 1 1 solved")
        #expect(ReplyCodec.line(.joined(room: "lobby", player: Self.p, seq: 17)) == "OK joined lobby id=4 seq=17")
        #expect(ReplyCodec.line(.next(puzzle: 1, kind: .jigsaw, rows: 4, cols: 4)) == "OK next 1 jigsaw 4x4")
        #expect(ReplyCodec.line(.pong(token: "")) == "PONG")
    }

    @Test func nonRepliesAndMalformedRepliesAreNotReplies() {
        for line in ["EV 3 left 1", "S room lobby", "BYE SLOW too slow", "", "OK", "OK frob 1", "OK grabbed x",
                     "OK grabbed -1", "OK dropped 1 cell 2", "OK dropped 1 sideways", "OK dragged 1 2 3 4", "ERR",
                     "OK next 1 puzzle 3x3", "OK joined lobby id=x seq=1"] {
            #expect(ReplyCodec.decode(line[...]) == nil, "\(line)")
        }
    }

    /// Every reply line the example transcripts expect (without wildcards)
    /// decodes, and encodes back to the same line.
    @Test func transcriptRepliesDecodeAndEncodeBack() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Protocol/examples").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".txt") }
        var checked = 0
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for raw in text.split(separator: "\n") {
                guard raw.count > 3, raw.dropFirst().hasPrefix("< ") else { continue }
                let line = raw.dropFirst(3)
                guard line.hasPrefix("OK ") || line.hasPrefix("ERR ") || line.hasPrefix("PONG"),
                      !line.contains("*"), !line.hasSuffix("..."), !line.hasPrefix("OK stats") else { continue }
                guard let reply = ReplyCodec.decode(line) else {
                    Issue.record("\(file): '\(line)' does not decode")
                    continue
                }
                #expect(ReplyCodec.line(reply) == String(line), "\(file)")
                checked += 1
            }
        }
        #expect(checked > 30)
    }

    /// Every case of `Reply` is in `everyReply`: a new reply cannot go untested.
    @Test func everyReplyCaseIsCovered() {
        let names = Set(Self.everyReply.map { ReplyCodec.line($0).split(separator: " ").prefix(2).joined(separator: " ") })
        for kind in ["hello", "help", "rooms", "stats", "created", "joined", "watching", "left", "sync", "digest", "picture",
                     "layout", "who", "history", "replay", "grabbed", "dragged", "rotated", "dropped", "released", "kept",
                     "hint", "next", "said", "upload", "uploaded", "bye"] {
            #expect(names.contains("OK \(kind)"), "\(kind)")
        }
        #expect(names.contains("PONG") && names.contains("ERR HELD"))
    }

    /// The bytes entry point and the string one agree, on replies and on junk.
    @Test func bytesAndStringsDecodeAlike() {
        let lines = Self.everyReply.map(ReplyCodec.line) + ["OK grabbed +4", "EV 1 left 2", "OK", "ERR"]
        for line in lines {
            let fromBytes = Array(line.utf8).withUnsafeBytes { ReplyCodec.decode($0) }
            #expect(fromBytes == ReplyCodec.decode(line[...]), "\(line)")
        }
        #expect([UInt8]().withUnsafeBytes { ReplyCodec.decode($0) } == nil)
    }

    /// Numbers are written as PROTOCOL.md writes them: an optional `-`, then
    /// digits. A plus sign, a space or other junk before the digits, hex, an
    /// exponent: not a number, so not the reply.
    @Test func signsAndLeadingJunkAreRefused() {
        for line in ["OK dropped +4 table 5 0", "OK dropped 4 table +5 0", "OK grabbed +4", "OK grabbed --4", "OK grabbed -+4",
                     "OK dragged 5 +17 -3 -", "OK dragged 5 17 -3 +2,9", "OK dragged 5 17 -3 2,+9", "OK rotated 8 +3",
                     "OK kept 7 +30000", "OK hint +2000", "OK help +21", "OK rooms 0x10", "OK who 1e3", "OK history x2",
                     "OK replay 0 5 more=+8", "OK joined lobby id=+4 seq=17", "OK joined lobby id=4 seq=+17",
                     "OK joined lobby id=4 seq=-17", "OK layout 16 puzzle=2 seed=+7", "OK next 2 swap +5x6",
                     "OK next 2 swap 5x+6", "OK picture +32 24 9a0b", "OK uploaded trip 640x+480 sha256=ab",
                     "OK upload trip bytes=+12 line=4096", "OK digest seq=3 value=01 correct=+2 total=9 held=1 puzzle=0",
                     "OK hello version=+1 id=4 name=alice", "OK sync seq=+9 digest=00", "OK sync seq=9 digest=00 missed=+1",
                     "OK joined den id=4 seq=17 missed=+2", "OK replay 0 5 more=x"] {
            #expect(ReplyCodec.decode(line[...]) == nil, "\(line)")
        }
    }

    /// Leading zeros are digits, as in requests (`GRAB 007` is piece 7):
    /// read as the number they spell.
    @Test func leadingZerosReadAsTheirNumber() {
        #expect(ReplyCodec.decode("OK grabbed 007"[...]) == .grabbed(piece: 7))
        #expect(ReplyCodec.decode("OK dropped 04 table 05 -00"[...]) == .dropped(piece: 4, outcome: .onTable(Point(x: 5, y: 0)), solved: false))
        #expect(ReplyCodec.decode("OK joined den id=04 seq=0017"[...]) == .joined(room: "den", player: Self.p, seq: 17))
        #expect(ReplyCodec.decode("OK next 2 swap 05x06"[...]) == .next(puzzle: 2, kind: .swap, rows: 5, cols: 6))
    }

    /// A number too big for its type is not read as a wrapped or clipped one.
    @Test func overflowIsRefused() {
        #expect(ReplyCodec.decode("OK grabbed 9223372036854775807"[...]) == .grabbed(piece: Int.max))
        #expect(ReplyCodec.decode("OK dragged 1 -9223372036854775808 0 -"[...]) == .dragged(piece: 1, to: Point(x: Int.min, y: 0), target: nil))
        #expect(ReplyCodec.decode("OK layout 4 puzzle=0 seed=18446744073709551615"[...]) == .layout(pieces: 4, puzzle: 0, seed: .max))
        for line in ["OK grabbed 9223372036854775808", "OK dragged 1 -9223372036854775809 0 -", "OK help 99999999999999999999",
                     "OK layout 4 puzzle=0 seed=18446744073709551616", "OK joined den id=4 seq=18446744073709551616",
                     "OK dragged 1 2 3 9223372036854775808,0", "OK next 1 jigsaw 9223372036854775808x2"] {
            #expect(ReplyCodec.decode(line[...]) == nil, "\(line)")
        }
    }

    /// Junk after a number, or words past a reply's last one, are not read past.
    @Test func trailingJunkIsRefused() {
        for line in ["OK grabbed 4x", "OK grabbed 4-", "OK grabbed 4 5", "OK released 4.0", "OK kept 7 30000ms",
                     "OK dragged 5 17 -3 - extra", "OK dragged 5 17 -3 2,9,1", "OK dragged 5 17 -3 2,", "OK rotated 8 3 1",
                     "OK dropped 1 cell 4 1 1", "OK dropped 1 cell 4 1x", "OK dropped 1 returned now", "OK dropped 1 solved",
                     "OK next 2 swap 5x6x7", "OK next 2 swap 5x6 on", "OK said so", "OK bye now", "OK hint 20s",
                     "OK left den now", "OK created den too", "OK joined den id=4x seq=1", "OK joined den id=4 seq=1 a b c",
                     "OK uploaded trip 640x480x2 sha256=ab", "OK picture 32 24 9a0b more", "OK layout 4 puzzle=0 seed=7 x"] {
            #expect(ReplyCodec.decode(line[...]) == nil, "\(line)")
        }
    }

    /// More spaces between words read as one (as events' do); fields in any order.
    @Test func spacingAndFieldOrder() {
        #expect(ReplyCodec.decode("OK  dragged  5 17   -3 -"[...]) == .dragged(piece: 5, to: Point(x: 17, y: -3), target: nil))
        #expect(ReplyCodec.decode("OK joined den seq=17 id=4"[...]) == .joined(room: "den", player: Self.p, seq: 17))
        #expect(ReplyCodec.decode("OK joined den id= seq=17"[...]) == nil)
        #expect(ReplyCodec.decode("ERR HELD  piece 3 is held"[...]) == .error(ProtocolError(.held, "piece 3 is held")))
        #expect(ReplyCodec.decode("PONG  t-1"[...]) == .pong(token: "t-1"))
    }
}
