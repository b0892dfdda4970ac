import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport
import Testing

/// Pictures uploaded by players (issue 18), over real sockets to a real
/// server: `UPLOAD`, its DATA lines, the refusals, and what is kept on disk.
@Suite struct UploadTests {
    static let fixtures = ServerPhotoPictureTests.fixtures
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name)))
    }

    /// UPLOAD, then (on its go-ahead) every DATA line at once; the final reply
    /// (or the refusal of UPLOAD itself).
    static func upload(_ c: LineClient, _ name: String, _ bytes: [UInt8], announce: Int? = nil, timeout: Double = 30) throws -> String {
        let ready = try c.request("UPLOAD \(name) \(announce ?? bytes.count)").reply
        guard case .uploadReady(let n, let size, let chars)? = ReplyCodec.decode(Substring(ready)) else { return ready }
        #expect(n == name && size == (announce ?? bytes.count))
        let lines = UploadChunk.lines(for: bytes, charactersPerLine: chars)
        try c.sendRaw(Array((lines.joined(separator: "\n") + "\n").utf8), deadline: 30)
        return try c.awaitReply(timeout: timeout).reply
    }

    static func greeted(_ server: TestServer, _ name: String) throws -> LineClient {
        let c = try LineClient(port: server.port, name: name)
        _ = try c.hello(name)
        return c
    }

    @Test func anUploadedPhotoMakesARoomForAnyone() throws {
        let server = try TestServer(rooms: [])
        defer { server.stop() }
        let alice = try Self.greeted(server, "alice")
        let jpeg = try Self.fixture("jpeg-exif-6.jpg")
        let sha = SHA256.hex(jpeg)
        // EXIF 6: stored 45x37, shown upright 37 wide, 45 high.
        #expect(try Self.upload(alice, "trip", jpeg) == "OK uploaded trip 37x45 sha256=\(sha)")
        // Kept by content, and its name recorded, before the OK.
        let data = server.config.dataDirectory
        #expect(FileManager.default.contents(atPath: "\(data)/pictures/\(sha).jpg") == Data(jpeg))
        let record = try String(contentsOfFile: "\(data)/uploads", encoding: .utf8)
        #expect(record.hasPrefix("trip \(sha).jpg \(jpeg.count) *"))

        // Another player makes a room of it by name, and sees the photo cropped to the board.
        let bob = try Self.greeted(server, "bob")
        #expect(try bob.request("CREATE photo jigsaw 3x5 picture=trip").reply == "OK created photo")
        let (joined, lines) = try bob.request("JOIN photo")
        #expect(joined.hasPrefix("OK joined photo"))
        let snapshot = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        let photo = try ImageDecoder.decode(jpeg)
        #expect(snapshot.picture == (try photo.picture(region: photo.centredCrop(aspectWidth: 5, aspectHeight: 3), width: 40, height: 32)))
        // A piece count follows the photo's shape (37x45: 11 rows of 9).
        #expect(try bob.request("CREATE count jigsaw 100 picture=trip").reply == "OK created count size=11x9 asked=100")
        let listed = listedRooms(try bob.request("ROOMS").state)["count"]
        #expect(listed?.rows == 11 && listed?.cols == 9, "\(String(describing: listed))")

        // The same bytes under the same name again: nothing new, the same answer.
        #expect(try Self.upload(bob, "trip", jpeg) == "OK uploaded trip 37x45 sha256=\(sha)")
        #expect(try String(contentsOfFile: "\(data)/uploads", encoding: .utf8) == record)
        // Other bytes under that name, or a host picture's name: refused.
        let png = try Self.fixture("png-rgba8.png")
        #expect(try Self.upload(bob, "trip", png).hasPrefix("ERR PICTURE_EXISTS a picture named 'trip' exists already (uploaded before"))
        #expect(try bob.request("UPLOAD sunset 100").reply.hasPrefix("ERR PICTURE_EXISTS a picture named 'sunset' exists already (one of the server's own"))
        // The same bytes under another name: one file (and its kept copy), two names.
        #expect(try Self.upload(bob, "trip2", jpeg).hasPrefix("OK uploaded trip2 37x45 "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/pictures").sorted() == ["\(sha).512.ppm", "\(sha).jpg"])
        // Uploads are not in other rooms' picture cycle (someone's photo stays theirs to use).
        #expect(try bob.request("CREATE plain jigsaw 2x2").reply == "OK created plain")
        #expect(try bob.request("PING").reply == "PONG")
    }

    @Test func refusalsAreTypedAndTheConnectionLivesOn() throws {
        let server = try TestServer(rooms: []) { $0.uploadMaxBytes = 64 << 10 }
        defer { server.stop() }
        let c = try Self.greeted(server, "carol")
        // Too large: refused from the announced size, before a byte is read or a buffer made.
        #expect(try c.request("UPLOAD big 65537").reply == "ERR TOO_LARGE 65537 bytes is more than the 65536 bytes an uploaded picture may have")
        #expect(try c.request("UPLOAD big 2000000000").reply.hasPrefix("ERR BAD_NUMBER "))
        #expect(try c.request("UPLOAD ../x 10").reply.hasPrefix("ERR BAD_NAME picture name \"../x\" must be "))
        #expect(try c.request("UPLOAD x").reply.hasPrefix("ERR BAD_ARGS usage: UPLOAD <picture> <bytes>"))
        // Bytes that are no picture, or a damaged one: the decoder's reason.
        #expect(try Self.upload(c, "notes", Array("just some words\n".utf8)) == "ERR BAD_PICTURE an uploaded picture is a PNG or a JPEG file; this is neither")
        let jpeg = try Self.fixture("jpeg-exif-6.jpg")
        #expect(try Self.upload(c, "half", Array(jpeg.prefix(jpeg.count / 2))).hasPrefix("ERR BAD_PICTURE IMAGE_TRUNCATED: "))
        let ppm = Array("P3\n2 2\n255\n0 0 0 1 1 1 2 2 2 3 3 3\n".utf8)
        #expect(try Self.upload(c, "ppm", ppm) == "ERR BAD_PICTURE an uploaded picture is a PNG or a JPEG file; this is a PPM file")
        // A DATA line with no upload open.
        #expect(try c.request("DATA AAAA").reply.hasPrefix("ERR NO_UPLOAD "))
        // Not base64: the upload ends with one reply, its later lines are dropped unanswered.
        #expect(try c.request("UPLOAD bad 6").reply == "OK upload bad bytes=6 line=1016")
        try c.send("DATA AA!A\nDATA AAAA\nDATA AAAA\nPING after")
        #expect(try c.awaitReply().reply == "ERR UPLOAD_ABORTED upload of 'bad' aborted: DATA line 1 is not whole quads of padded base64; nothing was stored")
        #expect(try c.awaitReply().reply == "PONG after")
        // More bytes than announced.
        #expect(try c.request("UPLOAD over 3").reply.hasPrefix("OK upload over "))
        try c.send("DATA AAAAAAAA\nPING x")
        #expect(try c.awaitReply().reply.hasPrefix("ERR UPLOAD_ABORTED upload of 'over' aborted: more than the 3 bytes announced arrived"))
        #expect(try c.awaitReply().reply == "PONG x")
        // Another request before the last byte: the upload's reply, then that request's.
        #expect(try c.request("UPLOAD cut 6").reply.hasPrefix("OK upload cut "))
        try c.send("DATA AAAA\nPING y")
        #expect(try c.awaitReply().reply.hasPrefix("ERR UPLOAD_ABORTED upload of 'cut' aborted: another request came before its last byte"))
        #expect(try c.awaitReply().reply == "PONG y")
        // Before its first DATA line an upload waits: other requests (sent while
        // the go-ahead travelled) are answered as usual, then its bytes come.
        #expect(try c.request("UPLOAD wait 6").reply.hasPrefix("OK upload wait "))
        #expect(try c.request("PING z").reply == "PONG z")
        try c.send("DATA AAAA\nDATA AAAA")
        #expect(try c.awaitReply().reply == "ERR BAD_PICTURE an uploaded picture is a PNG or a JPEG file; this is neither")
        // Never started, and another UPLOAD comes: the first goes without a reply.
        #expect(try c.request("UPLOAD none 6").reply.hasPrefix("OK upload none "))
        #expect(try c.request("UPLOAD none2 3").reply.hasPrefix("OK upload none2 "))
        try c.send("DATA AAAA")
        #expect(try c.awaitReply().reply.hasPrefix("ERR BAD_PICTURE "))
        // Nothing of these was kept.
        let data = server.config.dataDirectory
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/pictures").isEmpty)
        #expect(try c.request("CREATE r jigsaw 2x2 picture=half").reply.hasPrefix("ERR BAD_PICTURE no picture named 'half'"))
        // Uploading before HELLO.
        let stranger = try LineClient(port: server.port, name: "stranger")
        #expect(try stranger.request("UPLOAD x 10").reply.hasPrefix("ERR NO_HELLO "))
    }

    @Test func offPacedAndCapped() throws {
        let off = try TestServer(rooms: []) { $0.uploads = false }
        let o = try Self.greeted(off, "dave")
        #expect(try o.request("UPLOAD trip 100").reply == "ERR UPLOADS_OFF this server takes no uploaded pictures; CREATE with one of its pictures")
        #expect(try o.request("PING").reply == "PONG")
        off.stop()

        let server = try TestServer(rooms: []) { c in
            c.uploadsPerHour = 2
            c.uploadMaxCount = 1
        }
        defer { server.stop() }
        let jpeg = try Self.fixture("jpeg-exif-6.jpg")
        let c = try Self.greeted(server, "erin")
        #expect(try Self.upload(c, "one", jpeg).hasPrefix("OK uploaded one "))
        // The store holds one: another name is refused (the same name is no new picture).
        #expect(try c.request("UPLOAD two 100").reply.hasPrefix("ERR UPLOADS_FULL the server keeps at most 1 uploaded pictures"))
        #expect(try Self.upload(c, "one", jpeg).hasPrefix("OK uploaded one "))
        // Two an hour from one address, from any of its connections: the third waits 30 minutes.
        let other = try Self.greeted(server, "frank")
        let refused = try other.request("UPLOAD one \(jpeg.count)").reply
        #expect(refused.hasPrefix("ERR RATE_LIMITED uploads from 127.0.0.1 are paced at 2 an hour; try again in "), "\(refused)")
        let seconds = Int(refused.split(separator: " ").dropLast().last ?? "") ?? 0
        #expect((1790...1800).contains(seconds), "\(refused)")
    }

    @Test func aDisconnectMidUploadStoresNothing() throws {
        let server = try TestServer(rooms: [])
        defer { server.stop() }
        let jpeg = try Self.fixture("jpeg-large-420.jpg")
        let c = try Self.greeted(server, "gina")
        let ready = try c.request("UPLOAD big \(jpeg.count)").reply
        guard case .uploadReady(_, _, let chars)? = ReplyCodec.decode(Substring(ready)) else {
            Issue.record("no go-ahead: \(ready)")
            return
        }
        let lines = UploadChunk.lines(for: jpeg, charactersPerLine: chars)
        try c.send(lines.prefix(lines.count / 2).joined(separator: "\n"))
        c.close()
        // The name is free, nothing was written, and the server takes the next upload whole.
        let d = try Self.greeted(server, "hal")
        #expect(try d.request("CREATE r jigsaw 2x2 picture=big").reply.hasPrefix("ERR BAD_PICTURE no picture named 'big'"))
        let data = server.config.dataDirectory
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/pictures").isEmpty)
        let records = (try? String(contentsOfFile: "\(data)/uploads", encoding: .utf8)) ?? ""
        #expect(records.isEmpty)
        #expect(try Self.upload(d, "big", jpeg).hasPrefix("OK uploaded big 1100x1000 "))
    }

    /// What the browser page does, without a browser: the same lines as
    /// WebSocket text messages, each DATA line within `max_line_length`
    /// (the WebSocket message limit too); a message over it closes the link.
    @Test func overAWebSocketTheLinesAreMessages() throws {
        let server = try TestServer(rooms: [])
        defer { server.stop() }
        let web = try RawWebClient(port: server.port)
        #expect(try web.upgrade().status == 101)
        try web.sendLine("HELLO 2 wendy")
        _ = try web.line(startingWith: "OK hello")
        let jpeg = try Self.fixture("jpeg-large-420.jpg")
        try web.sendLine("UPLOAD web \(jpeg.count)")
        let ready = try web.line(startingWith: "OK upload ")
        #expect(ready == "OK upload web bytes=\(jpeg.count) line=1016")
        let lines = UploadChunk.lines(for: jpeg, charactersPerLine: 1016)
        #expect(lines.allSatisfy { $0.utf8.count <= 1024 } && lines.count == 41)
        try web.send(lines.flatMap { RawWebClient.frame(.text, Array($0.utf8)) })
        #expect(try web.line(startingWith: "OK uploaded ") == "OK uploaded web 1100x1000 sha256=\(SHA256.hex(jpeg))")
        try web.sendLine("CREATE sea jigsaw 48 picture=web")
        #expect(try web.line(startingWith: "OK created") == "OK created sea size=6x7 asked=48")
        try web.sendLine("JOIN sea")
        let joined = try web.lines(through: "OK joined sea")
        // About 48 pieces in the photo's shape (1100x1000): 6 rows of 7, a 56x48 picture.
        #expect(joined.contains { $0 == "S picture 56 48" || $0.hasPrefix("S picture 56 48 ") }, "\(joined.filter { $0.hasPrefix("S picture") })")
        // The page's own picture of it, drawn for browsers from the upload.
        let pic = try RawWebClient(port: server.port)
        try pic.send(RawWebClient.get("/picture/sea?w=200", port: server.port))
        let r = try pic.response()
        #expect(r.status == 200)
        let png = try PNGDecoder.decode(r.body)
        #expect(png.width == 200)
    }

    /// The real `puzzle serve`, killed with SIGKILL right after the upload's
    /// OK and after the room's: both come back, the room with its photo.
    @Test func killNineAfterTheOKKeepsThePicture() throws {
        let data = TestServer.temporaryDirectory()
        var server = try ServerProcess(dataDirectory: data, rooms: ["lobby jigsaw 2x2"])
        var c = try LineClient(port: server.port, name: "ivy")
        _ = try c.hello("ivy")
        let jpeg = try Self.fixture("jpeg-large-420.jpg")
        #expect(try Self.upload(c, "beach", jpeg).hasPrefix("OK uploaded beach 1100x1000 "))
        try server.kill()

        server = try ServerProcess(dataDirectory: data, rooms: ["lobby jigsaw 2x2"])
        c = try LineClient(port: server.port, name: "ivy")
        _ = try c.hello("ivy")
        #expect(try c.request("CREATE sea jigsaw 4x4 picture=beach pictures=fixed").reply == "OK created sea")
        let before = try c.request("JOIN sea").state
        try server.kill()

        server = try ServerProcess(dataDirectory: data, rooms: ["lobby jigsaw 2x2"])
        c = try LineClient(port: server.port, name: "ivy")
        _ = try c.hello("ivy")
        let after = try c.request("JOIN sea").state
        let pixels = { (lines: [String]) in lines.filter { $0.hasPrefix("S picture ") || $0.hasPrefix("S px ") } }
        #expect(pixels(after) == pixels(before) && pixels(after).count == 33)
        // Without its kept copy (a cache), the original is decoded again, to the same pixels.
        try server.kill()
        let pictures = data + "/pictures"
        for file in try FileManager.default.contentsOfDirectory(atPath: pictures) where file.hasSuffix(".ppm") {
            try FileManager.default.removeItem(atPath: pictures + "/" + file)
        }
        server = try ServerProcess(dataDirectory: data, rooms: ["lobby jigsaw 2x2"])
        c = try LineClient(port: server.port, name: "ivy")
        _ = try c.hello("ivy")
        #expect(pixels(try c.request("JOIN sea").state) == pixels(before))
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures).contains { $0.hasSuffix(".512.ppm") })
        // As the server decodes it: straight into the kept size (512 a side at most).
        let photo = try ImageDecoder.decode(jpeg, fitting: 512).image
        let snapshot = try SnapshotCodec.decode(after.map { Substring($0) }, now: 0)
        #expect(snapshot.picture == (try PictureLibraryProbe.terminalPicture(photo, rows: 4, cols: 4)))
        try server.kill()
    }
}

/// What the server keeps of a photo and cuts for a 4x4 board: shrunk to
/// 512 a side first, then cropped and scaled (as `PictureLibrary` does).
enum PictureLibraryProbe {
    static func terminalPicture(_ image: RGBImage, rows: Int, cols: Int) throws -> Picture {
        let kept = max(image.width, image.height) > 512 ? try image.picture(fitting: 512) : nil
        let base = kept.map { p in RGBImage(width: p.width, height: p.height, rgb: p.pixels.flatMap { [$0.r, $0.g, $0.b] }) } ?? image
        let w = max(cols, min(256, max(32, cols * 8))), h = max(rows, min(256, max(32, rows * 8)))
        return try base.picture(region: base.centredCrop(aspectWidth: cols, aspectHeight: rows), width: w, height: h)
    }
}
