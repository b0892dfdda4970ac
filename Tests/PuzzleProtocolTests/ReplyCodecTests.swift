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
        .created(room: "r1"), .joined(room: "lobby", player: p, seq: 17), .left(room: "lobby"),
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
}
