import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// A replay's pages put together: the start from the first, moves from each,
/// never more than the start said.
@Suite struct ReplayDownloadTests {
    static let spec = try! PuzzleSpec(kind: .swap, rows: 2, cols: 2, rotation: false, picture: "sunset")
    static let moves = (0..<3).map { ReplayMove(elapsed: Int64($0) * 100, player: PlayerID(1), change: .swapped(piece: 0, other: 1)) }
    static let start = PuzzleReplay(puzzle: 0, spec: spec, seed: 1, players: [ReplayPlayer(id: PlayerID(1), name: "alice", placed: 0, moves: 3)])

    @Test func pagesMakeTheReplay() throws {
        var download = ReplayDownload(puzzle: 0)
        let picture = Picture.builtin("sunset", width: 2, height: 1)
        try download.take(ReplayCodec.Page(start: Self.start, totalMoves: 3, moves: Array(Self.moves[0..<2]), picture: picture))
        try download.take(ReplayCodec.Page(moves: [Self.moves[2]]))
        var whole = Self.start
        whole.moves = Self.moves
        #expect(try download.finish() == whole)
        #expect(download.picture == picture)
    }

    @Test func pagesOutOfPlaceAreTypedErrors() throws {
        var download = ReplayDownload(puzzle: 0)
        #expect(throws: ReplayCodec.PageError.missingStart) { try download.take(ReplayCodec.Page(moves: Self.moves)) }
        #expect(throws: ReplayCodec.PageError.missingStart) { try download.finish() }
        try download.take(ReplayCodec.Page(start: Self.start, totalMoves: 3, moves: [Self.moves[0]]))
        #expect(throws: ReplayCodec.PageError.startAgain) { try download.take(ReplayCodec.Page(start: Self.start, totalMoves: 3)) }
        #expect(throws: ReplayCodec.PageError.tooManyMoves) { try download.take(ReplayCodec.Page(moves: Self.moves)) }
        #expect(download.replay?.moves == [Self.moves[0]], "a refused page adds nothing")
    }

    /// Through the session: a page that does not read is said, and no replay starts.
    @Test func theSessionSaysAnUnreadablePage() throws {
        var (app, _, lines) = try ReplayPlayTests.solved()
        _ = app.takeRequests()
        PlayAppTests.type("/replay 0", into: &app, now: 1)
        for line in [lines[0], "S who 1 alice moves=0 holding=-", "OK replay 0 4"] { app.handle(.serverLine(Substring(line)), now: 2) }
        #expect(app.replay == nil)
        #expect(app.scene(now: 3).messages.contains { $0.text.hasPrefix("error: the replay could not be read (line 2 of a replay page is a 'who' line)") })
    }
}
