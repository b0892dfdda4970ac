import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// `/replay`'s state: pages in order, the replay kept once until taken, the speed it was asked at.
@Suite struct ReplayFetchTests {
    static let spec = try! PuzzleSpec(kind: .swap, rows: 2, cols: 2, rotation: false, picture: "sunset")
    static let replay = PuzzleReplay(puzzle: 4, spec: spec, seed: 9,
                                     players: [ReplayPlayer(id: PlayerID(2), name: "bob", placed: 1, moves: 3)],
                                     moves: (0..<3).map { ReplayMove(elapsed: Int64($0) * 500, player: PlayerID(2), change: .swapped(piece: 0, other: 1)) },
                                     solvedMillis: 1_500)

    func page(_ moves: Range<Int>) -> [String] {
        var bytes: [UInt8] = []
        ReplayCodec.encodePage(Self.replay, from: moves.lowerBound, pageMoves: moves.count, picture: nil, into: &bytes)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func pagesComeInUntilTheLastThenTheReplayIsTakenOnce() throws {
        var fetch = ReplayFetch()
        fetch.ask(speed: 8)
        let first = try fetch.take(page: page(0..<2), puzzle: 4, more: 2)
        #expect(first == .more(from: 2))
        #expect(fetch.loaded == nil)
        let loaded = LoadedReplay(replay: Self.replay, picture: nil, speed: 8)
        let last = try fetch.take(page: page(2..<3), puzzle: 4, more: nil)
        #expect(last == .loaded(loaded))
        #expect(fetch.speed == nil && fetch.download == nil)
        let taken = fetch.takeLoaded(), again = fetch.takeLoaded()
        #expect(taken == loaded && again == nil)
    }

    /// A page of another puzzle starts over; a new `/replay` drops the pages in.
    @Test func anotherPuzzlesPageOrANewAskStartsOver() throws {
        var fetch = ReplayFetch()
        _ = try fetch.take(page: page(0..<2), puzzle: 4, more: 2)
        #expect(throws: ReplayCodec.PageError.missingStart) { try fetch.take(page: page(2..<3), puzzle: 5, more: nil) }
        _ = try fetch.take(page: page(0..<2), puzzle: 4, more: 2)
        fetch.ask(speed: nil)
        #expect(fetch.download == nil)
        #expect(throws: ReplayCodec.PageError.missingStart) { try fetch.take(page: page(2..<3), puzzle: 4, more: nil) }
    }

    @Test func replayAloneMeansTheSolvedTableElseTheLatestListed() throws {
        var fetch = ReplayFetch()
        var st = RoomState(settings: RoomSettings(first: Self.spec, seed: 1))
        #expect(fetch.latestSolvedPuzzle(in: st) == nil)
        fetch.listed([Self.replay])
        var older = Self.replay
        older.puzzle = 2
        fetch.listed([older])
        #expect(fetch.latestSolvedPuzzle(in: nil) == 4)
        #expect(fetch.latestSolvedPuzzle(in: st) == 4)
        try st.perform(.join(name: "a"), by: PlayerID(1), at: 0)
        for piece in 0..<4 where !st.isCorrect(piece) {
            let target = st.geometry.origin(of: st.homeCell(of: piece))
            try st.perform(.grab(piece: piece), by: PlayerID(1), at: 1)
            try st.perform(.drag(piece: piece, to: target), by: PlayerID(1), at: 1)
            try st.perform(.drop(piece: piece), by: PlayerID(1), at: 1)
        }
        #expect(st.isSolved)
        #expect(fetch.latestSolvedPuzzle(in: st) == st.puzzleIndex)
    }
}
