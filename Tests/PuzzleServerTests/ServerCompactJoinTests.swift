import PuzzleCore
import PuzzleImages
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import PuzzleWeb
import Testing

/// Over real sockets: a version 2 snapshot names what a client can have
/// without being sent it (pieces home or at their start as ranges, the
/// picture by its hash), `PICTURE` and `LAYOUT` send those on request, and
/// the room read back is the very room a version 1 snapshot lists in full.
@Suite struct ServerCompactJoinTests {
    /// `PICTURE`'s `S png` lines, decoded; checks the reply's size and hash.
    static func fetchPicture(_ c: LineClient) throws -> Picture {
        let (reply, lines) = try c.request("PICTURE")
        guard case .picture(let w, let h, let hash)? = ReplyCodec.decode(reply[...]) else {
            throw ServerProcessError(description: "PICTURE refused: \(reply)")
        }
        let text = lines.filter { $0.hasPrefix("S png ") }.map { $0.dropFirst(6) }.joined()
        let image = try ImageDecoder.decode(try #require(Base64.decode(text)))
        var pixels: [RGB] = []
        for i in stride(from: 0, to: image.rgb.count, by: 3) { pixels.append(RGB(r: image.rgb[i], g: image.rgb[i + 1], b: image.rgb[i + 2])) }
        let picture = try Picture(width: w, height: h, pixels: pixels)
        #expect(picture.contentHashHex == hash)
        return picture
    }

    static func state(_ lines: [String]) throws -> RoomSnapshot {
        try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
    }

    @Test func aFreshRoomIsOneRangeAndAHashAndReadsBackAsTheFullForm() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "ten", kind: .jigsaw, rows: 10, cols: 10, picture: "sunset")])
        defer { server.stop() }
        let one = try LineClient(port: server.port, name: "one")
        let two = try LineClient(port: server.port, name: "two")
        #expect(try one.request("HELLO 1 vera").reply.hasPrefix("OK hello"))
        _ = try PlayerIdentityTests.hello2(two, "wim")
        let (_, full) = try one.request("JOIN ten")
        let (_, compact) = try two.request("JOIN ten")
        #expect(compact.contains("S pieces start 0-99"), "\(compact)")
        #expect(!compact.contains { $0.hasPrefix("S piece ") || $0.hasPrefix("S px ") })
        let v1 = try Self.state(full), v2 = try Self.state(compact)
        let picture = try #require(v1.picture)
        #expect(compact.contains("S picture 80 80 \(picture.contentHashHex)"))
        #expect(v2.picture == nil && v2.pictureHash == picture.contentHashHex)
        #expect(v2.pictureSize?.width == 80 && v2.pictureSize?.height == 80)
        #expect(v2.state.pieces == v1.state.pieces)
        #expect(try Self.fetchPicture(two) == picture)
        // LAYOUT: where the puzzle started, for a client without the core.
        let (reply, layout) = try two.request("LAYOUT")
        #expect(reply == "OK layout 100 puzzle=0 seed=\(v1.state.settings.seed)")
        #expect(layout.allSatisfy { $0.hasPrefix("S start table ") })
        #expect(StartLayoutCodec.decode(layout.map { Substring($0) }, count: 100) == v1.state.startPieces)
    }

    @Test func midGamePiecesHomeAndMovedAreNamedAndEqualTheFullForm() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "ten", kind: .jigsaw, rows: 10, cols: 10, picture: "sunset")])
        defer { server.stop() }
        let one = try LineClient(port: server.port, name: "one")
        let two = try LineClient(port: server.port, name: "two")
        #expect(try one.request("HELLO 1 vera").reply.hasPrefix("OK hello"))
        _ = try PlayerIdentityTests.hello2(two, "wim")
        let room = try Self.state(try one.request("JOIN ten").state).state
        // Pieces 0 and 1 home (one range), 7 moved on the table, 8 held.
        for piece in [0, 1] {
            let home = room.geometry.origin(of: room.homeCell(of: piece))
            #expect(try one.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            #expect(try one.request("DRAG \(home.x) \(home.y)").reply.hasPrefix("OK dragged"))
            #expect(try one.request("DROP").reply.hasPrefix("OK dropped \(piece) cell"))
        }
        #expect(try one.request("GRAB 7").reply == "OK grabbed 7")
        #expect(try one.request("DRAG 0 0").reply.hasPrefix("OK dragged 7 0 0"))
        #expect(try one.request("DROP").reply.hasPrefix("OK dropped 7 table 0 0"))
        #expect(try one.request("GRAB 8").reply == "OK grabbed 8")
        let (_, compact) = try two.request("JOIN ten")
        #expect(compact.contains("S pieces home 0-1"), "\(compact)")
        #expect(compact.contains("S pieces start 2-6,8-99"), "\(compact)")
        #expect(compact.contains { $0.hasPrefix("S piece 7 table 0 0 ") })
        #expect(compact.contains { $0.hasPrefix("S hold 8 ") })
        let (_, full) = try one.request("SYNC")
        let v1 = try Self.state(full), v2 = try Self.state(compact)
        #expect(v2.state.pieces == v1.state.pieces)
        #expect(v2.state.locks.keys.sorted() == [8])
    }

    @Test func pictureAndLayoutNeedARoomAndNoArguments() throws {
        let server = try TestServer()
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        _ = try PlayerIdentityTests.hello2(c, "ana")
        #expect(try c.request("PICTURE").reply.hasPrefix("ERR NOT_JOINED"))
        #expect(try c.request("LAYOUT").reply.hasPrefix("ERR NOT_JOINED"))
        #expect(try c.request("PICTURE x").reply == "ERR BAD_ARGS usage: PICTURE [png|jpeg]")
        #expect(try c.request("PICTURE png jpeg").reply == "ERR BAD_ARGS usage: PICTURE [png|jpeg]")
        #expect(try c.request("WATCH lobby").reply.hasPrefix("OK watching lobby"))
        // A watcher may fetch them too: they are the room's, not a play.
        #expect(try c.request("PICTURE").reply.hasPrefix("OK picture 32 32 "))
        #expect(try c.request("LAYOUT").reply.hasPrefix("OK layout 9 puzzle=0 seed="))
    }

    @Test func aPictureComesAsAJPEGForAThirdOfThePNGsBytes() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "big", kind: .jigsaw, rows: 32, cols: 32, picture: "quilt")])
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        _ = try PlayerIdentityTests.hello2(c, "ana")
        #expect(try c.request("JOIN big").reply.hasPrefix("OK joined"))
        let png = try Self.fetchPicture(c)
        let (reply, lines) = try c.request("PICTURE jpeg")
        guard case .picture(let w, let h, let hash)? = ReplyCodec.decode(reply[...]) else {
            throw ServerProcessError(description: "PICTURE jpeg refused: \(reply)")
        }
        #expect(w == png.width && h == png.height && hash == png.contentHashHex)
        #expect(lines.allSatisfy { $0.hasPrefix("S jpeg ") })
        let text = lines.map { $0.dropFirst(7) }.joined()
        let image = try JPEGDecoder.decode(try #require(Base64.decode(text)))
        #expect(image.width == w && image.height == h)
        // Close to the lossless picture: within 12 levels on average.
        var error = 0
        for (i, p) in png.pixels.enumerated() {
            error += abs(Int(p.r) - Int(image.rgb[3 * i])) + abs(Int(p.g) - Int(image.rgb[3 * i + 1])) + abs(Int(p.b) - Int(image.rgb[3 * i + 2]))
        }
        #expect(error < 12 * 3 * png.pixels.count, "mean error \(Double(error) / Double(3 * png.pixels.count))")
        let pngBytes = try c.request("PICTURE png").state.reduce(0) { $0 + $1.utf8.count }
        // The quilt's hard edges are a JPEG's worst case: 43 KB against 130 KB.
        #expect(text.utf8.count * 5 < pngBytes * 2, "jpeg \(text.utf8.count) png \(pngBytes)")
    }
}

/// Over real sockets: rooms sent in one loop turn are bounded, and a request
/// held for the next turn keeps its place among the connection's requests.
@Suite struct ServerRoomBudgetTests {
    @Test func manySyncsPipelinedAreAllAnsweredInOrder() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "big", kind: .jigsaw, rows: 100, cols: 100, picture: "sunset")])
        defer { server.stop() }
        let c = try LineClient(port: server.port, name: "c")
        _ = try PlayerIdentityTests.hello2(c, "ana")
        #expect(try c.request("JOIN big").reply.hasPrefix("OK joined big"))
        // 60 snapshots of about 20 KB: more than one turn's budget (1 MiB).
        var batch = ""
        for _ in 0..<60 { batch += "SYNC\n" }
        batch += "PICTURE\nLAYOUT\nPING after\n"
        try c.sendRaw(Array(batch.utf8))
        for _ in 0..<60 {
            let (reply, lines) = try c.awaitReply(timeout: 30)
            #expect(reply.hasPrefix("OK sync seq="), "\(reply)")
            #expect(lines.contains("S pieces start 0-9999"))
        }
        #expect(try c.awaitReply(timeout: 30).reply.hasPrefix("OK picture 256 256 "))
        #expect(try c.awaitReply(timeout: 30).reply.hasPrefix("OK layout 10000 "))
        #expect(try c.awaitReply(timeout: 30).reply == "PONG after")
    }

    /// One client pipelining CREATEs of big rooms does not hold the loop
    /// for them all: each turn makes what its budget allows, and a
    /// bystander's PING, sent after them, is answered before the last of
    /// them (it used to wait for every one: issue 31).
    @Test func pipelinedCreatesLeaveTurnsForOthers() throws {
        let server = try TestServer()
        defer { server.stop() }
        let flooder = try LineClient(port: server.port, name: "flooder")
        let bystander = try LineClient(port: server.port, name: "bystander")
        _ = try PlayerIdentityTests.hello2(flooder, "flo")
        _ = try PlayerIdentityTests.hello2(bystander, "bea")
        let count = 40
        var batch = ""
        for i in 0..<count { batch += "CREATE r\(i) jigsaw 100x100\n" }
        try flooder.sendRaw(Array(batch.utf8))
        // The first reply says the flood has begun; the PING goes after it.
        #expect(try flooder.awaitReply(timeout: 60).reply == "OK created r0")
        try bystander.send("PING mid")
        #expect(try bystander.awaitReply(timeout: 60).reply == "PONG mid")
        // Ask the server how many rooms exist now: fewer than the flood's.
        let (_, listed) = try bystander.request("ROOMS", timeout: 60)
        #expect(listed.count < count, "\(listed.count) of \(count) rooms were made before the PING was answered")
        for i in 1..<count { #expect(try flooder.awaitReply(timeout: 60).reply == "OK created r\(i)") }
    }
}
