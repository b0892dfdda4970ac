import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import Testing
@testable import PuzzleClient

/// `/create NAME KIND SIZE picture=FILE` (issue 18): the client reads the
/// file, uploads it, then creates the room from it; a real server, the real
/// plain-mode driver.
@Suite(.serialized) struct PictureUploadTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("PuzzleImagesTests/Fixtures").path

    @Test func aPhotoFileBecomesARoomAndErrorsAreSaid() throws {
        let server = try TestServer(rooms: [RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3)])
        defer { server.stop() }
        let folder = TestServer.temporaryDirectory()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/jpeg-large-420.jpg"))
        try jpeg.write(to: URL(fileURLWithPath: folder + "/trip.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: folder + "/broken.jpg"))

        let alice = try PlainSession(port: server.port, name: "alice", room: "lobby", strict: true)
        try alice.waitFor("joined lobby as alice (#", prefix: true)
        try alice.send("create beach jigsaw 4x5 picture=\(folder)/trip.jpg")
        try alice.waitFor("uploading \(folder)/trip.jpg as picture trip (31 KB)…")
        try alice.waitFor("uploaded picture trip (1100x1000); creating room beach…")
        try alice.waitFor("ok: created beach")
        try alice.waitFor("room beach has your picture: /join beach to play it")
        // The room shows the photo, for anyone.
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try bob.hello("bob")
        let (joined, lines) = try bob.request("JOIN beach")
        #expect(joined.hasPrefix("OK joined beach"))
        let snapshot = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snapshot.picture?.width == 40 && snapshot.picture?.height == 32)
        // ... and anyone may make another room of it by name.
        let dunes = try bob.request("CREATE dunes jigsaw 30 picture=trip").reply
        #expect(dunes.hasPrefix("OK created dunes size=") && dunes.hasSuffix(" asked=30"), "\(dunes)")

        // What goes wrong is said, and the client plays on.
        try alice.send("create r1 jigsaw 3x3 picture=\(folder)/missing.png")
        try alice.waitFor("error: cannot upload \(folder)/missing.png: no such file")
        try alice.send("create r2 jigsaw 3x3 picture=\(folder)/")
        try alice.waitFor("error: cannot upload \(folder)/: it is a directory")
        try alice.send("create r3 jigsaw 3x3 picture=\(folder)/broken.jpg")
        try alice.waitFor(from: 0, "the server's refusal") { $0.hasPrefix("error BAD_PICTURE: IMAGE_TRUNCATED: ") }
        try alice.send("who")
        try alice.waitFor("ok: who 1")
        // Another file of the same name: uploaded as trip-2, and the room uses that.
        try FileManager.default.createDirectory(atPath: folder + "/other", withIntermediateDirectories: true)
        try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/png-rgba8.png")).write(to: URL(fileURLWithPath: folder + "/other/trip.png"))
        try alice.send("create logo jigsaw 3x3 picture=\(folder)/other/trip.png")
        try alice.waitFor("a picture named trip exists already: uploading as trip-2…")
        try alice.waitFor(from: 0, "trip-2 uploaded") { $0.hasPrefix("uploaded picture trip-2 (") && $0.hasSuffix("creating room logo…") }
        try alice.waitFor("room logo has your picture: /join logo to play it")
        try alice.send("join beach")
        try alice.waitFor("joined beach as alice (#", prefix: true)
        alice.closeInput()
        #expect(try alice.waitForExit() == 1)  // --strict: three failed
    }

    @Test func picturePathsAndTheirNames() throws {
        #expect(PictureFile.isPath("~/Photos/trip.jpg") && PictureFile.isPath("./a") && PictureFile.isPath("IMG_1.JPEG"))
        #expect(!PictureFile.isPath("sunset") && !PictureFile.isPath("IMG_2041"))
        #expect(PictureFile.pictureName(forPath: "~/Photos/IMG 2041.JPG") == "IMG_2041")
        #expect(PictureFile.pictureName(forPath: "/x/été.png") == "__t__")
        #expect(PictureFile.pictureName(forPath: "/x/.jpg") == ".jpg")  // a dot file keeps its whole name
        #expect(PictureFile.pictureName(forPath: "/x/\(String(repeating: "a", count: 40)).jpg").count == 24)
        #expect(PictureFile.pictureName(forPath: "/x/..") == "photo")
        guard case .createWithFile(let spec, let path)? = try ClientCommand.parse("create den jigsaw 10x10 picture=~/Photos/trip.jpg rotation=on") else {
            Issue.record("not a create with a file")
            return
        }
        #expect(path == "~/Photos/trip.jpg" && spec.picture == "trip" && spec.rotation && spec.rows == 10)
        // One's own photo stays for the next puzzles, unless asked otherwise.
        #expect(!spec.cyclesPictures)
        guard case .createWithFile(let cycling, _)? = try ClientCommand.parse("create den jigsaw 10x10 picture=./trip.jpg pictures=cycle") else {
            Issue.record("not a create with a file")
            return
        }
        #expect(cycling.cyclesPictures)
        #expect(try ClientCommand.parse("create den jigsaw 10x10 picture=harbor") == .create(try RoomSpec.parse(["den", "jigsaw", "10x10", "picture=harbor"])))
    }
}
