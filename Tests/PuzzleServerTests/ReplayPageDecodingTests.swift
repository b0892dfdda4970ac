import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import Testing

/// A real server's `REPLAY` pages read with `ReplayCodec.decodePage`: the same
/// replay as the line-by-line reader makes of them, and the page's picture.
@Suite struct ReplayPageDecodingTests {
    @Test func aServersPagesDecodeToItsReplayAndPicture() throws {
        let server = try TestServer(rooms: [ReplayTests.duo]) { $0.replayPageMoves = 2 }
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        _ = try PlayerIdentityTests.hello2(alice, "alice")
        let state = try PlayerIdentityTests.join(alice, "duo").state
        for piece in 0..<4 { try ReplayTests.move(alice, piece, to: ReplayTests.home(piece, state)) }
        _ = try alice.waitForEvent { $0.contains(" solved 0 ") }

        var pages: [ReplayCodec.Page] = []
        var sent: [(from: Int, lines: [String], reply: String)] = []
        var (reply, lines) = try alice.request("REPLAY 0")
        pages.append(try ReplayCodec.decodePage(lines))
        sent.append((0, lines, reply))
        while case .replay(_, _, let more?)? = ReplyCodec.decode(reply[...]) {
            (reply, lines) = try alice.request("REPLAY 0 \(more)")
            pages.append(try ReplayCodec.decodePage(lines))
            sent.append((more, lines, reply))
        }
        #expect(pages.map(\.moves.count) == [2, 2])
        #expect(pages.dropFirst().allSatisfy { $0.start == nil && $0.picture == nil })
        let first = try #require(pages.first)
        let picture = try #require(first.picture)
        #expect(picture.width > 0 && picture.height > 0)
        var replay = try #require(first.start)
        #expect(first.totalMoves == 4 && replay.players.map(\.name) == ["alice"])
        replay.moves = pages.flatMap(\.moves)
        let reference = try ReplayTests.replay(alice, 0).replay
        #expect(replay == reference)
        #expect(replay.state(after: replay.moves.count).correctCount == 4)

        // Byte for byte what `ReplayCodec.encodePage` writes for the same
        // replay, picture and page size, and the reply its range makes: the
        // server's pages cannot drift from the client's tests built with it.
        let kept = try #require(reference)
        for page in sent {
            var bytes: [UInt8] = []
            let moves = ReplayCodec.encodePage(kept, from: page.from, pageMoves: 2, picture: picture, into: &bytes)
            #expect(page.lines.map { $0 + "\n" }.joined() == String(decoding: bytes, as: UTF8.self))
            let more = moves.upperBound < kept.moves.count ? moves.upperBound : nil
            #expect(page.reply == ReplyCodec.line(.replay(puzzle: 0, moves: moves.count, more: more)))
        }
    }
}
