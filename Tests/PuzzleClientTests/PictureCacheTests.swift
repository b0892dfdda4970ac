import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleWeb
import Testing
@testable import PuzzleClient

/// The session's pictures by hash: a compact snapshot's picture is asked for
/// once (`PICTURE`), kept across a reconnect, and a built-in one is drawn here.
@Suite struct PictureCacheTests {
    /// A picture no client can draw by itself.
    static let photo = try! Picture(width: 8, height: 8) { x, y in RGB(r: UInt8(x * 30), g: UInt8(y * 30), b: 7) }

    static func room() throws -> RoomState {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 5))
        var ev: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0, into: &ev)
        return st
    }

    /// Greets and takes in a compact snapshot showing `picture`; returns what the session asked next.
    static func join(_ s: inout ClientSession, picture: Picture) throws -> [Request] {
        s.connected(now: 0)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 0)
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "duo", state: try room(), picture: picture), now: 0,
                                        extended: true, layout: true, compact: true)
        #expect(lines.contains("S picture \(picture.width) \(picture.height) \(picture.contentHashHex)"))
        #expect(!lines.contains { $0.hasPrefix("S px ") })
        for line in lines { s.receive(Substring(line), now: 0) }
        s.receive("OK joined duo id=1 seq=1", now: 0)
        #expect(s.phase == .joined)
        return s.takeOutgoing()
    }

    @Test func aMissingPictureIsFetchedOnceAsAJPEGAndKeptAcrossAReconnect() throws {
        var s = ClientSession(name: "alice", room: "duo")
        #expect(try Self.join(&s, picture: Self.photo) == [.picture(.jpeg)])
        #expect(s.mirror?.picture == nil)
        let jpeg = JPEGEncoder.encode(Self.photo)
        let base64 = Base64.encode(jpeg)
        s.receive(Substring("S jpeg \(base64.prefix(8))"), now: 1)
        s.receive(Substring("S jpeg \(base64.dropFirst(8))"), now: 1)
        s.receive(Substring("OK picture 8 8 \(Self.photo.contentHashHex)"), now: 1)
        // Lossy: the JPEG's own pixels, filed under the server's hash.
        let shown = try #require(s.mirror?.picture)
        #expect(shown.pixels.flatMap { [$0.r, $0.g, $0.b] } == (try JPEGDecoder.decode(jpeg)).rgb)
        #expect(s.pictures.count == 1)
        s.connectionLost("cut")
        #expect(try Self.join(&s, picture: Self.photo).isEmpty)
        #expect(s.mirror?.picture == shown)
    }

    @Test func aPNGIsTakenWhenItHasItsHash() throws {
        var s = ClientSession(name: "alice", room: "duo")
        _ = try Self.join(&s, picture: Self.photo)
        s.receive(Substring("S png \(Base64.encode(PNGEncoder.encode(Self.photo)))"), now: 1)
        s.receive(Substring("OK picture 8 8 \(Self.photo.contentHashHex)"), now: 1)
        #expect(s.mirror?.picture == Self.photo)
    }

    @Test func aPictureThatDoesNotMatchItsHashOrSizeIsRefused() throws {
        var s = ClientSession(name: "alice", room: "duo")
        #expect(try Self.join(&s, picture: Self.photo) == [.picture(.jpeg)])
        let other = try Picture(width: 8, height: 8) { _, _ in RGB(r: 1, g: 2, b: 3) }
        s.receive(Substring("S png \(Base64.encode(PNGEncoder.encode(other)))"), now: 1)
        s.receive(Substring("OK picture 8 8 \(Self.photo.contentHashHex)"), now: 1)
        #expect(s.mirror?.picture == nil)
        #expect(s.pictures.count == 0)
        #expect(s.takeOutput().contains { $0.text.contains("could not be read") })
        // A JPEG cannot be checked against the hash, but its size can; and
        // one reply is one format.
        let wide = try Picture(width: 9, height: 8) { _, _ in RGB(r: 1, g: 2, b: 3) }
        #expect(PictureCache.decode(lines: ["S jpeg \(Base64.encode(JPEGEncoder.encode(wide)))"], width: 8, height: 8, hash: "x") == nil)
        let jpeg = Base64.encode(JPEGEncoder.encode(Self.photo))
        #expect(PictureCache.decode(lines: ["S jpeg \(jpeg)"], width: 8, height: 8, hash: "x") != nil)
        #expect(PictureCache.decode(lines: ["S jpeg \(jpeg)", "S png AAAA"], width: 8, height: 8, hash: "x") == nil)
    }

    @Test func aBuiltInPictureIsDrawnHereNotFetched() throws {
        var s = ClientSession(name: "alice", room: "duo")
        let sunset = try #require(Picture.builtin("sunset", width: 32, height: 32))
        #expect(try Self.join(&s, picture: sunset).isEmpty)
        #expect(s.mirror?.picture == sunset)
    }
}

/// The pictures kept on disk between runs: written by hash, read back only
/// when the file is the picture its name says, built-ins not written.
@Suite struct PictureDiskCacheTests {
    static func directory() -> String {
        let d = NSTemporaryDirectory() + "puzzle-pictures-\(UUID().uuidString)"
        return d
    }

    @Test func aPictureKeptIsThereNextRunAndAForgedFileIsNot() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var cache = PictureCache()
        cache.insert(PictureCacheTests.photo)
        let sunset = try #require(Picture.builtin("sunset", width: 32, height: 32))
        cache.insert(sunset)
        PictureDiskCache(directory: dir).keep(cache)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(names == ["\(PictureCacheTests.photo.contentHashHex).png"])
        // A file whose content is not its name's picture is not taken.
        let other = try Picture(width: 8, height: 8) { _, _ in RGB(r: 9, g: 9, b: 9) }
        #expect(FileManager.default.createFile(atPath: dir + "/0123456789abcdef.png", contents: Data(PNGEncoder.encode(other))))
        #expect(FileManager.default.createFile(atPath: dir + "/fedcba9876543210.png", contents: Data("not a png".utf8)))
        var next = PictureCache()
        PictureDiskCache(directory: dir).load(into: &next)
        #expect(next.hashes == [PictureCacheTests.photo.contentHashHex])
        #expect(next.kept(PictureCacheTests.photo.contentHashHex) == PictureCacheTests.photo)
    }

    @Test func aPictureSentAsAJPEGIsKeptUnderTheServersHash() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try JPEGDecoder.decode(JPEGEncoder.encode(PictureCacheTests.photo))
        let near = try Picture(width: 8, height: 8, pixels: stride(from: 0, to: image.rgb.count, by: 3).map {
            RGB(r: image.rgb[$0], g: image.rgb[$0 + 1], b: image.rgb[$0 + 2])
        })
        let server = PictureCacheTests.photo.contentHashHex
        #expect(near.contentHashHex != server)
        var cache = PictureCache()
        cache.insert(near, hash: server)
        PictureDiskCache(directory: dir).keep(cache)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["\(server)-\(near.contentHashHex).png"])
        // Damage shows: pixels that are not the second hash's are not taken.
        let other = try Picture(width: 8, height: 8) { _, _ in RGB(r: 9, g: 9, b: 9) }
        #expect(FileManager.default.createFile(atPath: dir + "/0123456789abcdef-fedcba9876543210.png", contents: Data(PNGEncoder.encode(other))))
        var next = PictureCache()
        PictureDiskCache(directory: dir).load(into: &next)
        #expect(next.hashes == [server])
        #expect(next.kept(server) == near)
    }

    @Test func theDirectoryComesFromXDGOrHome() {
        #expect(PictureDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/puzzle-room/pictures")
        #expect(PictureDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]) == "/h/.cache/puzzle-room/pictures")
        #expect(PictureDiskCache.defaultDirectory(environment: [:]) == nil)
    }
}

/// Built-in pictures are drawn once per process, for every session in it (a server's
/// telnet players): the same pixels as drawing them, whichever thread asks first.
@Suite struct BuiltinPicturesTests {
    @Test func drawnOnceAndTheSameAsDrawingThem() async {
        let names = Picture.builtinNames
        let results = await withTaskGroup(of: (String, Picture?).self) { group in
            for i in 0..<16 {
                let name = names[i % names.count]
                group.addTask { (name, BuiltinPictures.shared.picture(name, width: 37, height: 29)) }
            }
            var all: [(String, Picture?)] = []
            for await r in group { all.append(r) }
            return all
        }
        for (name, picture) in results {
            #expect(picture == Picture.builtin(name, width: 37, height: 29))
        }
        #expect(BuiltinPictures.shared.picture("no such picture", width: 8, height: 8) == nil)
        // A session's cache finds a built-in picture by its hash through the shared drawing.
        var cache = PictureCache()
        let sunset = Picture.builtin("sunset", width: 37, height: 29)!
        #expect(cache.picture(hash: sunset.contentHashHex, name: "sunset", width: 37, height: 29) == sunset)
        #expect(cache.picture(hash: "0000", name: "sunset", width: 37, height: 29) == nil)
    }
}
