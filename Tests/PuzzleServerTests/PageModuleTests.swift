import Foundation
import Testing
import PuzzleServer

/// What the page's unit tests need: Debian's `nodejs` (`node --test`). Without
/// it they are skipped, saying so, except under `CI=true` (`.ci/run` installs
/// it), where they fail.
enum NodeTool {
    static let path: String? = {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for name in ["node", "nodejs"] {
            for dir in dirs where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        }
        return nil
    }()
    static let missing: String? = path == nil ? "the page's unit tests need node (apt-get install nodejs)" : nil
    static var runs: Bool { missing == nil || BrowserTools.ci }
}

/// The page's modules (Sources/CWebPage/Page/*.js): their pure parts under
/// `node --test` (Tests/Page/*.test.mjs: the wire, the room state, the
/// geometry), and every module the page imports served by the binary.
@Suite struct PageModuleTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let pageDirectory = root.appendingPathComponent("Sources/CWebPage/Page")

    @Test(.enabled(if: NodeTool.runs, Comment(rawValue: NodeTool.missing ?? "")))
    func theModulesPassTheirNodeTests() throws {
        guard let node = NodeTool.path else {
            Issue.record("CI=true, and \(NodeTool.missing ?? "")")
            return
        }
        let testDirectory = Self.root.appendingPathComponent("Tests/Page")
        let files = try FileManager.default.contentsOfDirectory(atPath: testDirectory.path)
            .filter { $0.hasSuffix(".test.mjs") }.sorted().map { testDirectory.appendingPathComponent($0).path }
        #expect(files.count >= 3, "Tests/Page has \(files.count) test files")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["--test"] + files
        process.currentDirectoryURL = Self.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let failures = text.split(separator: "\n").filter { $0.hasPrefix("not ok") || $0.contains("error:") }.joined(separator: "\n")
        #expect(process.terminationStatus == 0, "node --test failed (status \(process.terminationStatus)):\n\(failures)\n\(text.suffix(4000))")
    }

    @Test func everyPageFileAndEveryModuleItImportsIsServed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pageDirectory.path).filter { $0 != "package.json" }
        #expect(names.contains("app.js") && names.count > 5)
        for name in names {
            let served = try #require(WebFile.page[name == "index.html" ? "/" : "/" + name], "Page/\(name) is not embedded (CWebPage.c)")
            let onDisk = try Data(contentsOf: Self.pageDirectory.appendingPathComponent(name))
            #expect(Data(served.bytes) == onDisk, "the served \(name) is not the file")
            if name.hasSuffix(".js") {
                #expect(served.contentType == "text/javascript; charset=utf-8", "\(name) is served as \(served.contentType)")
                #expect(served.cacheControl == "no-cache" && !served.etag.isEmpty)
            }
        }
        // The page starts at app.js, a module; each module's imports are served.
        let html = String(decoding: try #require(WebFile.page["/"]).bytes, as: UTF8.self)
        #expect(html.contains("<script src=\"app.js\" type=\"module\"></script>"))
        for (path, file) in WebFile.page where path.hasSuffix(".js") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            for match in text.matches(of: #/from '\./([\w.-]+\.js)'/#) {
                #expect(WebFile.page["/" + match.output.1] != nil, "\(path) imports \(match.output.1), which is not served")
            }
        }
    }

    /// The page weighs at most 200 KB as a browser loads it: every file a
    /// first load fetches, as sent to a browser that takes gzip (every one
    /// does). The files as they are stay under 240 KB, a bound on what the
    /// page's code grows to.
    @Test func thePageWeighsAtMost200KB() {
        let sent = WebFile.page.values.reduce(0) { $0 + ($1.gzipped ?? $1.bytes).count }
        let files = WebFile.page.values.reduce(0) { $0 + $1.bytes.count }
        #expect(sent <= 200_000, "the page is \(sent) bytes sent")
        #expect(files <= 240_000, "the page's files are \(files) bytes")
    }
}
