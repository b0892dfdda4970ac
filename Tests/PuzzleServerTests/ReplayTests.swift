import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import Testing

/// Watch it again (issue 20): a solved puzzle's replay is kept (compaction
/// and restarts lose none of its moves, `replays_kept` bounds how many),
/// HISTORY lists the solved puzzles with their time, moves and who placed
/// what, REPLAY sends one back move by move with who made each.
@Suite struct ReplayTests {
    static let duo = RoomSpec(name: "duo", kind: .jigsaw, rows: 2, cols: 2, picture: "sunset", rotation: false, password: nil)

    /// GRAB, DRAG to `point`, DROP: the DROP's reply.
    @discardableResult
    static func move(_ c: LineClient, _ piece: Int, to point: Point) throws -> String {
        #expect(try c.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
        #expect(try c.request("DRAG \(piece) \(point.x) \(point.y)").reply.hasPrefix("OK dragged \(piece) "))
        return try c.request("DROP \(piece)").reply
    }

    static func home(_ piece: Int, _ state: RoomState) -> Point { state.geometry.origin(of: state.homeCell(of: piece)) }

    /// The replay REPLAY sent (every page: `more=` asks for the next), read
    /// back with the protocol's reader; the first page's reply.
    static func replay(_ c: LineClient, _ puzzle: Int) throws -> (reply: String, lines: [String], replay: PuzzleReplay?) {
        var (reply, lines) = try c.request("REPLAY \(puzzle)")
        let first = reply
        var all = lines
        while case .replay(_, _, let more?)? = ReplyCodec.decode(reply[...]) {
            (reply, lines) = try c.request("REPLAY \(puzzle) \(more)")
            all += lines
        }
        var reader = ReplayCodec.Reader()
        for line in all where line.hasPrefix("S replay") { try reader.take(line.dropFirst(2)) }
        return (first, all, try? reader.finish())
    }

    @Test func historyAndReplayAfterASolveSayWhoDidWhatInOrder() throws {
        let server = try TestServer(rooms: [Self.duo]) { $0.replayPageMoves = 2 }
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        let a = try PlayerIdentityTests.hello2(alice, "alice").id
        let state = try PlayerIdentityTests.join(alice, "duo").state
        let bob = try LineClient(port: server.port, name: "bob")
        let b = try PlayerIdentityTests.hello2(bob, "bob").id
        _ = try PlayerIdentityTests.join(bob, "duo")

        #expect(try alice.request("REPLAY 0").reply.hasPrefix("ERR UNKNOWN_PUZZLE room 'duo' keeps no replay of puzzle 0 (kept: none yet"))
        #expect(try alice.request("HISTORY").reply == "OK history 0")
        try Self.move(alice, 0, to: Self.home(0, state))
        try Self.move(alice, 1, to: Self.home(1, state))
        // The table's corner, by the board's filled corner cell: no target, so the
        // piece lies on the table there (a move, nothing placed).
        #expect(try Self.move(alice, 3, to: Point(x: 0, y: 0)) == "OK dropped 3 table 0 0")
        try Self.move(bob, 2, to: Self.home(2, state))
        #expect(try Self.move(bob, 3, to: Self.home(3, state)) == "OK dropped 3 cell 1 1 solved")
        let solved = try alice.waitForEvent { $0.contains(" solved 0 ") }
        let elapsed = solved.split(separator: " ").last.map(String.init) ?? "?"

        let (history, lines) = try alice.request("HISTORY")
        #expect(history == "OK history 1")
        #expect(lines == ["S history 0 jigsaw 2x2 off sunset elapsed=\(elapsed) moves=5 players=2",
                          "S history-player 0 \(a) placed=2 moves=3 alice",
                          "S history-player 0 \(b) placed=2 moves=2 bob"], "\(lines)")
        #expect(try bob.request("HISTORY 0").reply == "OK history 1")
        #expect(try bob.request("HISTORY 1").reply.hasPrefix("ERR UNKNOWN_PUZZLE room 'duo' keeps no replay of puzzle 1 (kept: 0;"))

        // Two moves a page: the start, players, picture and moves 0-1, then the rest on asking.
        let page = try bob.request("REPLAY 0")
        #expect(page.reply == "OK replay 0 2 more=2" && page.state.filter { $0.hasPrefix("S replay ") }.count == 2)
        #expect(page.state.contains { $0.hasPrefix("S picture ") })
        let last = try bob.request("REPLAY 0 4")
        #expect(last.reply == "OK replay 0 1" && last.state.count == 1 && last.state[0].hasPrefix("S replay "), "\(last)")
        #expect(try bob.request("REPLAY 0 9").reply == "OK replay 0 0")
        let (reply, replayLines, replay) = try Self.replay(bob, 0)
        #expect(reply == "OK replay 0 2 more=2")
        #expect(replayLines.first == "S replay-start 0 jigsaw 2x2 off sunset seed=\(state.settings.seed) elapsed=\(elapsed) moves=5 players=2")
        let moves = replayLines.filter { $0.hasPrefix("S replay ") }.map { $0.split(separator: " ").dropFirst(3).joined(separator: " ") }
        #expect(moves == ["\(a) placed 0 cell 0 0 0", "\(a) placed 1 cell 0 1 0", "\(a) placed 3 table 0 0 0",
                          "\(b) placed 2 cell 1 0 0", "\(b) placed 3 cell 1 1 0"], "\(moves)")
        #expect(replayLines.contains { $0.hasPrefix("S picture ") } && replayLines.contains { $0.hasPrefix("S px ") })
        // Played through with the core, it ends on the solved board; times never go back.
        let r = try #require(replay)
        #expect(r.startState().pieces == state.pieces, "the start is the layout the room began with")
        #expect(r.state(after: r.moves.count).correctCount == 4)
        #expect(zip(r.moves, r.moves.dropFirst()).allSatisfy { $0.elapsed <= $1.elapsed })

        // Malformed: typed errors, the connection lives on.
        #expect(try bob.request("REPLAY").reply.hasPrefix("ERR BAD_ARGS usage: REPLAY <puzzle> [from]"))
        #expect(try bob.request("REPLAY 0 -2").reply.hasPrefix("ERR BAD_NUMBER"))
        #expect(try bob.request("REPLAY -1").reply.hasPrefix("ERR BAD_NUMBER"))
        #expect(try bob.request("REPLAY x").reply.hasPrefix("ERR BAD_NUMBER"))
        #expect(try bob.request("HISTORY 0 1").reply.hasPrefix("ERR BAD_ARGS usage: HISTORY [puzzle]"))
        let lone = try LineClient(port: server.port, name: "lone")
        _ = try lone.hello("lone")
        #expect(try lone.request("HISTORY").reply.hasPrefix("ERR NOT_JOINED"))
        #expect(try bob.request("PING ok").reply == "PONG ok")
    }

    /// A kept replay not in memory is read off the loop (issue 31): the
    /// REPLAY waits for it, and what the client sent after it is answered
    /// after it; a file gone or damaged behind the server's back is refused
    /// with the error of its kind, and the connection lives on.
    @Test func aKeptReplayIsReadOffTheLoopAndAnsweredInOrder() throws {
        let data = TestServer.temporaryDirectory()
        var server = try TestServer(rooms: [Self.duo], dataDirectory: data)
        var alice = try LineClient(port: server.port, name: "alice")
        let token = try PlayerIdentityTests.hello2(alice, "alice")
        var state = try PlayerIdentityTests.join(alice, "duo").state
        for puzzle in 0...1 {
            if puzzle > 0 {
                #expect(try alice.request("NEXT").reply.hasPrefix("OK next \(puzzle) "))
                state = try SnapshotCodec.decode(alice.request("SYNC").state.map { Substring($0) }, now: 0).state
            }
            var last = ""
            for piece in 0..<state.pieceCount { last = try Self.move(alice, piece, to: Self.home(piece, state)) }
            #expect(last.hasSuffix(" solved"), "\(last)")
        }
        alice.close()
        server.stop()

        // Restarted: no replay is in memory, each is read from its file.
        server = try TestServer(rooms: [Self.duo], dataDirectory: data)
        defer { server.stop() }
        alice = try LineClient(port: server.port, name: "alice")
        _ = try PlayerIdentityTests.hello2(alice, "alice", token: token.token)
        _ = try PlayerIdentityTests.join(alice, "duo")
        try alice.send("REPLAY 0")
        try alice.send("PING after")
        let (reply, lines) = try alice.awaitReply()
        #expect(reply == "OK replay 0 4" && lines.contains { $0.hasPrefix("S replay-start 0 ") }, "\(reply) \(lines.prefix(2))")
        #expect(try alice.awaitReply().reply == "PONG after")

        try FileManager.default.removeItem(atPath: data + "/rooms/duo/replay.1")
        #expect(try alice.request("REPLAY 1").reply.hasPrefix("ERR UNKNOWN_PUZZLE room 'duo' keeps no replay of puzzle 1"))
        try Data("# puzzle-room replay 1\ngarbage\n".utf8).write(to: URL(fileURLWithPath: data + "/rooms/duo/replay.0"))
        #expect(try alice.request("REPLAY 0").reply.hasPrefix("ERR STORAGE the replay of puzzle 0 could not be read"))
        #expect(try alice.request("PING still").reply == "PONG still")
    }

    @Test func aReplaySurvivesCompactionAndRestartsAndTheRoomKeepsOnlyTheLatest() throws {
        let data = TestServer.temporaryDirectory()
        let configure: (inout ServerConfig) -> Void = { c in
            c.snapshotEvery = 1  // a snapshot (and a fresh journal) after every turn that wrote
            c.replaysKept = 2
        }
        var server = try TestServer(rooms: [Self.duo], dataDirectory: data, configure: configure)
        var alice = try LineClient(port: server.port, name: "alice")
        var token = try PlayerIdentityTests.hello2(alice, "alice")
        var state = try PlayerIdentityTests.join(alice, "duo").state
        try Self.move(alice, 0, to: Self.home(0, state))
        try Self.move(alice, 1, to: Self.home(1, state))
        alice.close()
        server.stop()

        // Restarted: the first two moves come from the snapshots' record, the rest is played now.
        server = try TestServer(rooms: [Self.duo], dataDirectory: data, configure: configure)
        alice = try LineClient(port: server.port, name: "alice")
        token = try PlayerIdentityTests.hello2(alice, "alice", token: token.token)
        state = try PlayerIdentityTests.join(alice, "duo").state
        try Self.move(alice, 2, to: Self.home(2, state))
        #expect(try Self.move(alice, 3, to: Self.home(3, state)) == "OK dropped 3 cell 1 1 solved")
        var (reply, _, replay) = try Self.replay(alice, 0)
        #expect(reply == "OK replay 0 4")
        #expect(replay?.moves.map(\.piece) == [0, 1, 2, 3] && replay?.moves.allSatisfy { $0.player.rawValue == token.id } == true)

        // Two more puzzles: only the latest two replays are kept.
        for puzzle in 1...2 {
            #expect(try alice.request("NEXT").reply.hasPrefix("OK next \(puzzle) "))
            state = try SnapshotCodec.decode(alice.request("SYNC").state.map { Substring($0) }, now: 0).state
            var last = ""
            for piece in 0..<state.pieceCount { last = try Self.move(alice, piece, to: Self.home(piece, state)) }
            #expect(last.hasSuffix(" solved"), "\(last)")
        }
        #expect(try alice.request("HISTORY").state.filter { $0.hasPrefix("S history ") }.map { $0.split(separator: " ")[2] } == ["1", "2"])
        #expect(try alice.request("REPLAY 0").reply.hasPrefix("ERR UNKNOWN_PUZZLE"))
        #expect(!FileManager.default.fileExists(atPath: data + "/rooms/duo/replay.0"))
        alice.close()
        server.stop()

        // And after another restart, the history and the replays are still there.
        server = try TestServer(rooms: [Self.duo], dataDirectory: data, configure: configure)
        alice = try LineClient(port: server.port, name: "alice")
        _ = try PlayerIdentityTests.hello2(alice, "alice", token: token.token)
        _ = try PlayerIdentityTests.join(alice, "duo")
        #expect(try alice.request("HISTORY").reply == "OK history 2")
        (reply, _, replay) = try Self.replay(alice, 2)
        #expect(reply == "OK replay 2 16" && replay.map { $0.state(after: 16).correctCount } == 16)
        alice.close()
        server.stop()

        // The setting lowered: the oldest replay goes at the start.
        let lowered = try TestServer(rooms: [Self.duo], dataDirectory: data) { $0.replaysKept = 1 }
        defer { lowered.stop() }
        let bob = try LineClient(port: lowered.port, name: "bob")
        _ = try bob.enter("duo", as: "bob")
        #expect(try bob.request("HISTORY").state.filter { $0.hasPrefix("S history ") }.map { $0.split(separator: " ")[2] } == ["2"])
        #expect(!FileManager.default.fileExists(atPath: data + "/rooms/duo/replay.1"))
    }
}
