import PuzzleCore
import PuzzleImages
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import Testing

/// A client without the core draws a kept replay (issue 29): `LAYOUT
/// <puzzle>` gives that puzzle's table, edges and start layout, for the
/// current puzzle or a solved one the room keeps, after the room went on to
/// another puzzle; plain `LAYOUT` is as it was. `/picture/<room>?puzzle=<n>`
/// draws that puzzle's picture sharp for a browser.
@Suite struct ReplayLayoutTests {
    /// The lines of a reply of one kind of `S` record.
    static func records(_ lines: [String], _ kind: String) -> [String] { lines.filter { $0.hasPrefix("S \(kind) ") } }

    @Test func layoutOfASolvedPuzzleIsItsTableEdgesAndStartAfterTheRoomMovedOn() throws {
        let server = try TestServer(rooms: [ReplayTests.duo])
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        _ = try PlayerIdentityTests.hello2(alice, "alice")
        let (joined, first) = try alice.request("JOIN duo")
        #expect(joined.hasPrefix("OK joined duo"))
        let state = try SnapshotCodec.decode(first.map { Substring($0) }, now: 0).state
        let seed = state.settings.seed

        // Not solved yet: the current puzzle answers with its table and edges, a later one is unknown.
        let (now0, lines0) = try alice.request("LAYOUT 0")
        #expect(now0 == "OK layout 4 puzzle=0 seed=\(seed)")
        #expect(Self.records(lines0, "table") == Self.records(first, "table") && Self.records(first, "table").count == 1)
        #expect(Self.records(lines0, "edges") == Self.records(first, "edges") && Self.records(first, "edges").count == 1)
        #expect(try alice.request("LAYOUT 1").reply.hasPrefix("ERR UNKNOWN_PUZZLE room 'duo' keeps no replay of puzzle 1"))

        for piece in 0..<4 { try ReplayTests.move(alice, piece, to: ReplayTests.home(piece, state)) }
        _ = try alice.waitForEvent { $0.contains(" solved 0 ") }
        #expect(try alice.request("NEXT").reply.hasPrefix("OK next 1 jigsaw 3x3"))
        let (_, second) = try alice.request("SYNC")
        let next = try SnapshotCodec.decode(second.map { Substring($0) }, now: 0).state
        #expect(next.puzzleIndex == 1)

        // The solved puzzle 0, kept: its own table (2x2's, not the 3x3's now on it), edges and start.
        let (kept, lines) = try alice.request("LAYOUT 0")
        #expect(kept == "OK layout 4 puzzle=0 seed=\(seed)")
        #expect(Self.records(lines, "table") == Self.records(first, "table"))
        #expect(Self.records(lines, "table") != Self.records(second, "table"))
        #expect(Self.records(lines, "edges") == Self.records(first, "edges"))
        let starts = lines.filter { $0.hasPrefix("S start ") }.map { Substring($0) }
        #expect(StartLayoutCodec.decode(starts, count: 4) == state.startPieces)
        #expect(lines.count == 2 + starts.count, "\(lines)")

        // The current puzzle by number, and plain LAYOUT (the start alone, as before).
        let (current, currentLines) = try alice.request("LAYOUT 1")
        #expect(current == "OK layout 9 puzzle=1 seed=\(seed)")
        #expect(Self.records(currentLines, "table") == Self.records(second, "table"))
        #expect(Self.records(currentLines, "edges") == Self.records(second, "edges"))
        let (plain, plainLines) = try alice.request("LAYOUT")
        #expect(plain == current && plainLines.allSatisfy { $0.hasPrefix("S start ") })
        #expect(StartLayoutCodec.decode(plainLines.map { Substring($0) }, count: 9) == next.startPieces)

        // A watcher may ask too; bad numbers and extra words are typed errors, the link lives on.
        let wim = try LineClient(port: server.port, name: "wim")
        _ = try PlayerIdentityTests.hello2(wim, "wim")
        #expect(try wim.request("LAYOUT 0").reply.hasPrefix("ERR NOT_JOINED"))
        #expect(try wim.request("WATCH duo").reply.hasPrefix("OK watching duo"))
        #expect(try wim.request("LAYOUT 0").reply == kept)
        #expect(try wim.request("LAYOUT 7").reply.hasPrefix("ERR UNKNOWN_PUZZLE room 'duo' keeps no replay of puzzle 7 (kept: 0;"))
        #expect(try wim.request("LAYOUT -1").reply.hasPrefix("ERR BAD_NUMBER"))
        #expect(try wim.request("LAYOUT x").reply.hasPrefix("ERR BAD_NUMBER"))
        #expect(try wim.request("LAYOUT 0 1").reply == "ERR BAD_ARGS usage: LAYOUT [puzzle]")
        #expect(try wim.request("PING ok").reply == "PONG ok")
    }

    @Test func aKeptPuzzlesPictureIsServedByNumberAfterTheRoomMovedOn() throws {
        let server = try TestServer(rooms: [ReplayTests.duo])
        defer { server.stop() }
        let alice = try LineClient(port: server.port, name: "alice")
        _ = try PlayerIdentityTests.hello2(alice, "alice")
        let state = try PlayerIdentityTests.join(alice, "duo").state
        // A connection each: a refusal ends its connection.
        func get(_ path: String) throws -> RawWebClient.Response {
            let web = try RawWebClient(port: server.port)
            try web.send(RawWebClient.get(path, port: web.port))
            return try web.response(head: false)
        }
        func pixels(_ r: RawWebClient.Response) throws -> [UInt8] { try PNGDecoder.decode(r.body).rgb }
        let sunset = try #require(Picture.builtin("sunset", width: 64, height: 64)).pixels.flatMap { [$0.r, $0.g, $0.b] }
        #expect(try pixels(get("/picture/duo?w=64&puzzle=0")) == sunset, "the current puzzle by its number")
        #expect(try get("/picture/duo?w=64&puzzle=1").status == 404, "not solved, not kept")

        for piece in 0..<4 { try ReplayTests.move(alice, piece, to: ReplayTests.home(piece, state)) }
        _ = try alice.waitForEvent { $0.contains(" solved 0 ") }
        #expect(try alice.request("NEXT").reply.hasPrefix("OK next 1 jigsaw 3x3"))
        let next = try SnapshotCodec.decode(try alice.request("SYNC").state.map { Substring($0) }, now: 0).state
        #expect(next.spec.picture != "sunset", "the room cycles its pictures")
        let current = try #require(Picture.builtin(next.spec.picture, width: 64, height: 64)).pixels.flatMap { [$0.r, $0.g, $0.b] }

        // Puzzle 0, kept: its own picture, not the room's now.
        #expect(try pixels(get("/picture/duo?w=64&puzzle=0")) == sunset)
        #expect(try pixels(get("/picture/duo?w=64")) == current)
        #expect(try pixels(get("/picture/duo?w=64&puzzle=1")) == current)
        #expect(try get("/picture/duo?w=64&puzzle=7").status == 404)
        let bad = try get("/picture/duo?w=64&puzzle=x")
        #expect(bad.status == 400 && String(decoding: bad.body, as: UTF8.self).contains("puzzle= must be a puzzle number"))
    }
}
