import Testing
import PuzzleCore
@testable import PuzzleProtocol

/// A `REPLAY` page read as typed values: what the server's page writer wrote
/// comes back whole, and a page that is not one says why, typed.
@Suite struct ReplayPageTests {
    static let spec = try! PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, rotation: false, picture: "sunset")

    /// A solved 2x2 puzzle's replay: five moves by two players.
    static let replay = PuzzleReplay(
        puzzle: 3, spec: spec, seed: 77,
        players: [ReplayPlayer(id: PlayerID(1), name: "alice", placed: 2, moves: 3), ReplayPlayer(id: PlayerID(2), name: "bob", placed: 2, moves: 2)],
        moves: [
            ReplayMove(elapsed: 1_000, player: PlayerID(1), change: .placed(piece: 0, at: .board(Cell(row: 0, col: 0)), rotation: 0)),
            ReplayMove(elapsed: 2_000, player: PlayerID(1), change: .placed(piece: 1, at: .board(Cell(row: 0, col: 1)), rotation: 0)),
            ReplayMove(elapsed: 2_500, player: PlayerID(1), change: .placed(piece: 3, at: .table(Point(x: 0, y: 0)), rotation: 0)),
            ReplayMove(elapsed: 3_000, player: PlayerID(2), change: .swapped(piece: 2, other: 3)),
            ReplayMove(elapsed: 4_000, player: PlayerID(2), change: .placed(piece: 3, at: .board(Cell(row: 1, col: 1)), rotation: 0)),
        ],
        solvedMillis: 4_000)

    static let picture = Picture.builtin("sunset", width: 6, height: 4)!

    /// The page's lines as the server writes them.
    func lines(_ moves: Range<Int>, picture: Picture? = Self.picture) -> [String] {
        var bytes: [UInt8] = []
        let written = ReplayCodec.encodePage(Self.replay, from: moves.lowerBound, pageMoves: moves.count, picture: picture, into: &bytes)
        #expect(written == moves)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aFirstPageComesBackWithItsStartMovesAndPicture() throws {
        let page = try ReplayCodec.decodePage(lines(0..<2))
        var start = Self.replay
        start.moves = []
        #expect(page.start == start)
        #expect(page.totalMoves == 5)
        #expect(page.moves == Array(Self.replay.moves[0..<2]))
        #expect(page.picture == Self.picture)
    }

    @Test func aLaterPageIsMovesOnly() throws {
        let page = try ReplayCodec.decodePage(lines(2..<5))
        #expect(page == ReplayCodec.Page(moves: Array(Self.replay.moves[2..<5])))
        // The whole replay on one page, with no picture kept for it.
        let whole = try ReplayCodec.decodePage(lines(0..<5, picture: nil))
        #expect(whole.moves == Self.replay.moves && whole.picture == nil && whole.start?.players == Self.replay.players)
        #expect(try ReplayCodec.decodePage([]) == ReplayCodec.Page())
    }

    /// The same lines as the server's `REPLAY` wrote them before `encodePage`:
    /// the replay's own lines, then the picture's.
    @Test func encodePageWritesWhatTheServerWrote() {
        var bytes: [UInt8] = []
        ReplayCodec.encode(Self.replay, header: true, moves: 0..<2, into: &bytes)
        bytes.append(text: "S picture \(Self.picture.width) \(Self.picture.height)\n")
        for row in Self.picture.hexRows() { bytes.append(text: "S px \(row)\n") }
        #expect(lines(0..<2) == String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// The page's bounds as the server's `REPLAY` set them: at least one
    /// move a page, none past the last; the start and picture only for a
    /// page asked from 0 (a replay without moves asked from 5 has neither).
    @Test func pagesAreBoundedAsTheServerBoundsThem() {
        var bytes: [UInt8] = []
        #expect(ReplayCodec.encodePage(Self.replay, from: 4, pageMoves: 0, picture: Self.picture, into: &bytes) == 4..<5)
        #expect(ReplayCodec.encodePage(Self.replay, from: 9, pageMoves: 3, picture: Self.picture, into: &bytes) == 5..<5)
        var expected: [UInt8] = []
        ReplayCodec.encode(Self.replay, header: false, moves: 4..<5, into: &expected)
        #expect(bytes == expected)
        var empty = Self.replay
        empty.moves = []
        bytes = []
        #expect(ReplayCodec.encodePage(empty, from: 5, pageMoves: 3, picture: Self.picture, into: &bytes) == 0..<0)
        #expect(bytes.isEmpty)
        #expect(ReplayCodec.encodePage(empty, from: 0, pageMoves: 3, picture: nil, into: &bytes) == 0..<0)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("S replay-start 3 "))
    }

    @Test func malformedPagesGiveTypedErrors() {
        let first = lines(0..<2)
        func error(_ page: [String]) -> ReplayCodec.PageError? {
            do { _ = try ReplayCodec.decodePage(page); return nil } catch { return error }
        }
        // Another reply's lines, or no `S `.
        #expect(error(["S who 1 alice moves=0 holding=-"]) == .unexpectedLine(line: 0, kind: "who"))
        #expect(error(["replay 1000 1 swapped 2 3"]) == .unexpectedLine(line: 0, kind: "replay"))
        // A start naming two players, one listed.
        #expect(error(Array(first.prefix(2)) + [first[3]]) == .startCutShort)
        #expect(error(Array(first.prefix(2))) == .startCutShort)
        // A start after a move, or twice.
        #expect(error([first[3], first[0]]) == .unexpectedLine(line: 1, kind: "replay-start"))
        #expect(error([first[0], first[0]]) == .unexpectedLine(line: 1, kind: "replay-start"))
        // A move that does not read.
        #expect(error(["S replay 1000 1 placed 0 cell 0"]) == .unreadable(line: 0, reason: "bad replay line"))
        #expect(error(["S replay x 1 swapped 2 3"]) == .unreadable(line: 0, reason: "bad number in replay"))
        // Pictures: bounded sizes, rows after the size, as many as it says, each the width's.
        #expect(error(["S picture 5000 2"]) == .badPicture("size 5000x2"))
        #expect(error(["S picture 0 2"]) == .badPicture("size 0x2"))
        #expect(error(["S picture 2 2 abc"]) == .unexpectedLine(line: 0, kind: "picture"))
        #expect(error(["S picture 2 2 0123456789abcdef"]) == .unexpectedLine(line: 0, kind: "picture"))
        #expect(error(["S picture +2 2"]) == .unexpectedLine(line: 0, kind: "picture"))
        #expect(error(["S px 000000"]) == .unexpectedLine(line: 0, kind: "px"))
        #expect(error(["S picture 1 1", "S px 000000", "S px 000000"]) == .unexpectedLine(line: 2, kind: "px"))
        guard case .badPicture? = error(["S picture 1 2", "S px 000000"]) else { Issue.record("a row missing"); return }
        guard case .badPicture? = error(["S picture 1 1", "S px 00000g"]) else { Issue.record("a bad row"); return }
    }

    /// More moves than a replay keeps are refused before they are all held.
    @Test func aPageOfTooManyMovesIsRefused() {
        let move = "S replay 1000 1 swapped 2 3"
        let page = Array(repeating: move, count: PuzzleReplay.maxMoves + 1)
        #expect(throws: ReplayCodec.PageError.tooManyMoves) { try ReplayCodec.decodePage(page) }
    }
}
