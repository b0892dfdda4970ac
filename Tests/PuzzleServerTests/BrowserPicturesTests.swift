import PuzzleCore
@testable import PuzzleServer
import PuzzleWeb
import Testing

/// Browser pictures alone, without sockets: their size, the refusals, one
/// drawing for every browser waiting for the same picture, and the cache.
@Suite struct BrowserPicturesTests {
    static let pictures = try! PictureLibrary(files: [:])

    static func head(_ method: String = "GET", _ headers: [(String, String)] = []) -> HTTPRequestHead {
        HTTPRequestHead(method: method, target: "/picture", minorVersion: 1, headers: HTTPHeaders(headers))
    }

    @Test func thePictureHasTheBoardsShapeAndNoSidePastTheLargest() throws {
        let wide = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 4)
        #expect(BrowserPictures.size(width: 400, for: wide) == (400, 300))
        let tall = try PuzzleSpec(kind: .jigsaw, rows: 8, cols: 2)
        #expect(BrowserPictures.size(width: 600, for: tall) == (512, 2048))
        #expect(BrowserPictures.size(width: 16, for: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 40)) == (16, 1))
    }

    @Test func noRoomOrNoPictureIsRefusedAtOnce() throws {
        let browser = try BrowserPictures()
        let none = browser.response(room: "den", spec: nil, width: 100, head: Self.head("HEAD"), token: 1, pictures: Self.pictures)
        #expect(none?.status == .notFound && none?.isHead == true)
        let unknown = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, picture: "gone")
        let missing = browser.response(room: "den", spec: unknown, width: 100, head: Self.head(), token: 1, pictures: Self.pictures)
        #expect(missing?.status == .notFound && missing?.body == Array("room 'den' has no picture to show\n".utf8))
    }

    @Test func browsersAskingForOnePictureWaitForOneDrawingThenItIsCached() throws {
        let browser = try BrowserPictures()
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2)
        #expect(browser.response(room: "den", spec: spec, width: 64, head: Self.head(), token: 1, pictures: Self.pictures) == nil)
        #expect(browser.response(room: "den", spec: spec, width: 64, head: Self.head("HEAD"), token: 2, pictures: Self.pictures) == nil)
        let done = try awaitResults(of: browser.descriptor) { browser.collect() }
        #expect(done.map(\.token) == [1, 2])
        #expect(done.map(\.response.status) == [.ok, .ok] && done.map(\.response.isHead) == [false, true])
        let png = done[0].response.body
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The next browser gets it from the cache, now; one that has it gets 304.
        let cached = browser.response(room: "den", spec: spec, width: 64, head: Self.head(), token: 3, pictures: Self.pictures)
        #expect(cached?.status == .ok && cached?.body == png)
        let etag = try #require(cached?.headers.values("ETag").first)
        let again = browser.response(room: "den", spec: spec, width: 64, head: Self.head("GET", [("If-None-Match", etag)]), token: 3,
                                     pictures: Self.pictures)
        #expect(again?.status == .notModified)
    }
}
