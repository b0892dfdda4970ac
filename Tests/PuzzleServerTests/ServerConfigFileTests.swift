import Foundation
import Testing
import PuzzleCore

@testable import PuzzleServer

/// Keeps `Config/puzzle.conf` and `ServerConfig()` from ever disagreeing.
@Suite("Config/puzzle.conf")
struct ServerConfigFileTests {
    /// The repository's Config/puzzle.conf, found from this source file's location.
    private static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 {
            url.deleteLastPathComponent()  // file, PuzzleServerTests, Tests
        }
        return url.appendingPathComponent("Config/puzzle.conf").path
    }()

    @Test func shippedConfigIsExactlyTheDefaultsPlusItsSamplePicture() throws {
        var shipped = try ServerConfig.load(path: Self.path)
        let harbor = try #require(shipped.pictures["harbor"])
        #expect(harbor.hasSuffix("Config/pictures/harbor.ppm") && FileManager.default.fileExists(atPath: harbor))
        shipped.pictures = [:]
        #expect(shipped == ServerConfig())
    }

    @Test func shippedSamplePictureLoadsAsAPuzzlePicture() throws {
        let shipped = try ServerConfig.load(path: Self.path)
        var library = try PictureLibrary(files: shipped.pictures)
        #expect(library.contains("harbor") && library.names.contains("harbor"))
        let harbor = library.terminalPicture("harbor", rows: 5, cols: 5)
        let picture = try #require(harbor)
        #expect(picture.width >= 5 && picture.height >= 5)
    }

    /// Pictures handed out again come from the library's memo: the same
    /// pixels as drawing them anew, for every size and after evictions.
    @Test func rememberedPicturesAreTheDrawnOnes() throws {
        var library = try PictureLibrary(files: [:])
        let sizes = [(3, 3), (40, 40), (3, 3), (5, 7)] + (10..<22).map { ($0, $0) } + [(3, 3), (40, 40)]
        for (rows, cols) in sizes {
            let w = max(cols, min(256, max(32, cols * 8))), h = max(rows, min(256, max(32, rows * 8)))
            #expect(library.terminalPicture("rings", rows: rows, cols: cols) == Picture.builtin("rings", width: w, height: h))
        }
        #expect(library.terminalPicture("nope", rows: 3, cols: 3) == nil)
    }

    @Test func shippedConfigSetsEveryKey() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let setKeys = Set(text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let trimmed = line.configTrimmed()
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else {
                return nil
            }
            return trimmed[..<equals].configTrimmed()
        })
        let expected = Set(ConfigKey.allCases.map(\.rawValue))
        #expect(setKeys == expected)
        #expect(text.contains("# room = ") && text.contains(" swap "))
    }

    @Test func shippedConfigValuesMatchRenderedDefaults() throws {
        // Catches a comment or value drifting from the code's default rendering.
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let defaults = ServerConfig()
        for key in ConfigKey.allCases where key != .picture && key != .room {
            let rendered = key.render(defaults)
            #expect(text.contains("\(key.rawValue) = \(rendered)"), "\(key.rawValue)")
            #expect(text.contains("Default: \(rendered)"), "comment for \(key.rawValue)")
        }
    }

    /// The comment above a key: the `#` lines right before its setting.
    private static func comment(above key: String, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let at = lines.firstIndex(where: { $0.hasPrefix("\(key) = ") }) else { return "" }
        var start = at
        while start > 0 && lines[start - 1].hasPrefix("#") { start -= 1 }
        return lines[start..<at].joined(separator: "\n")
    }

    @Test func maxLineLengthCommentSaysWhatTheServerDoes() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let comment = Self.comment(above: "max_line_length", in: text)
        #expect(comment.contains("ERR LINE_TOO_LONG") && comment.contains("stays open"), "\(comment)")
        #expect(!comment.contains("closes the connection"), "\(comment)")
    }
}
