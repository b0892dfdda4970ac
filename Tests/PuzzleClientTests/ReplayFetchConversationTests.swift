import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The HISTORY and REPLAY conversation `ReplayFetch` owns: what `/replay`
/// asks, what a HISTORY reply says (the banner's numbers, or the listing),
/// each page's next request, and how long the banner's numbers are kept.
@Suite struct ReplayFetchConversationTests {
    static let spec = ReplayFetchTests.spec
    static let replay = ReplayFetchTests.replay

    func historyLines(_ replays: [PuzzleReplay]) -> [String] {
        var bytes: [UInt8] = []
        for r in replays { ReplayCodec.encodeHistory(r, into: &bytes) }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A 2x2 swap room, solved (puzzle 0) or not.
    func table(solved: Bool) throws -> RoomState {
        var st = RoomState(settings: RoomSettings(first: Self.spec, seed: 1))
        guard solved else { return st }
        try st.perform(.join(name: "a"), by: PlayerID(1), at: 0)
        for piece in 0..<4 where !st.isCorrect(piece) {
            try st.perform(.grab(piece: piece), by: PlayerID(1), at: 1)
            try st.perform(.drag(piece: piece, to: st.geometry.origin(of: st.homeCell(of: piece))), by: PlayerID(1), at: 1)
            try st.perform(.drop(piece: piece), by: PlayerID(1), at: 1)
        }
        return st
    }

    @Test func replayCommandAsksForTheNamedOrLatestPuzzleElseRefuses() {
        var fetch = ReplayFetch()
        let none = fetch.command(puzzle: nil, speed: 4, table: nil)
        #expect(none.failed && none.requests.isEmpty)
        #expect(none.lines.map(\.text) == ["error: no puzzle solved here yet (/history lists the solved ones)"])
        let named = fetch.command(puzzle: 3, speed: 4, table: nil)
        #expect(!named.failed && named.lines.isEmpty)
        #expect(named.requests == [SessionEffects.Send(request: .replay(3), fromUser: true, successNote: nil)])
        #expect(fetch.speed == 4)
        fetch.listed([Self.replay])
        let latest = fetch.command(puzzle: nil, speed: nil, table: nil)
        #expect(latest.requests.map(\.request) == [.replay(4)])
        #expect(fetch.speed == nil)
    }

    /// Asked by the client: the numbers are kept (and said) only while the
    /// table is that puzzle, solved; then kept until the table changes.
    @Test func bannerNumbersAreKeptForTheSolvedTableOnly() throws {
        var fetch = ReplayFetch()
        let solved = try table(solved: true)
        var mine = Self.replay
        mine.puzzle = solved.puzzleIndex
        #expect(fetch.needsStats(of: mine.puzzle))
        let notSolved = fetch.history(historyLines([mine]), puzzle: mine.puzzle, text: "history 1", fromUser: false, table: try table(solved: false))
        #expect(notSolved.lines.isEmpty && fetch.solvedStats == nil)
        let said = fetch.history(historyLines([mine]), puzzle: mine.puzzle, text: "history 1", fromUser: false, table: solved)
        #expect(fetch.solvedStats?.puzzle == mine.puzzle && !fetch.needsStats(of: mine.puzzle))
        #expect(said.lines.map(\.text) == ["puzzle \(mine.puzzle): 3 moves; placed: bob 1; /replay \(mine.puzzle) watches it again"])
        fetch.tableChanged(solvedPuzzle: mine.puzzle, sameRoom: true)
        #expect(fetch.solvedStats?.puzzle == mine.puzzle, "the same room's same solved puzzle keeps them")
        fetch.tableChanged(solvedPuzzle: mine.puzzle, sameRoom: false)
        #expect(fetch.solvedStats == nil, "another room's puzzle of that number asks for its own")
        _ = fetch.history(historyLines([mine]), puzzle: mine.puzzle, text: "history 1", fromUser: false, table: solved)
        fetch.tableChanged(solvedPuzzle: nil, sameRoom: true)
        #expect(fetch.solvedStats == nil && fetch.needsStats(of: mine.puzzle))
    }

    @Test func historyAskedByThePlayerIsAListing() {
        var fetch = ReplayFetch()
        let empty = fetch.history([], puzzle: nil, text: "history 0", fromUser: true, table: nil)
        #expect(empty.lines == [
            OutputLine(kind: .reply, text: "no solved puzzle kept here yet", about: .listing(.entry("no solved puzzle kept here yet"))),
            OutputLine(kind: .reply, text: "ok: history 0", about: .listing(.end)),
        ])
        let listed = fetch.history(historyLines([Self.replay]), puzzle: nil, text: "history 1", fromUser: true, table: nil)
        let entry = "puzzle 4  swap 2x2  0:01  3 moves; placed: bob 1"
        #expect(listed.lines == [
            OutputLine(kind: .reply, text: "  " + entry, about: .listing(.entry(entry))),
            OutputLine(kind: .reply, text: "ok: history 1", about: .listing(.end)),
        ])
        #expect(fetch.latestSolvedPuzzle(in: nil) == 4 && fetch.solvedStats == nil)
    }

    @Test func pagesAskForTheNextThenSayTheReplay() {
        var fetch = ReplayFetch()
        let tests = ReplayFetchTests()
        let first = fetch.page(tests.page(0..<2), reply: .replay(puzzle: 4, moves: 2, more: 2))
        #expect(first.lines.isEmpty)
        #expect(first.requests == [SessionEffects.Send(request: .replay(4, from: 2), fromUser: false, successNote: nil)])
        let last = fetch.page(tests.page(2..<3), reply: .replay(puzzle: 4, moves: 1))
        #expect(last.requests.isEmpty)
        #expect(last.lines.map(\.text) == ["replay of puzzle 4: 3 moves by bob"])
        #expect(fetch.takeLoaded()?.replay == Self.replay)
        let unreadable = fetch.page(["S replay nonsense"], reply: .replay(puzzle: 4, moves: 1))
        #expect(unreadable.lines.first?.kind == .error && !unreadable.failed)
        #expect(fetch.page([], reply: .said).lines.isEmpty, "not a REPLAY reply: nothing")
    }
}
