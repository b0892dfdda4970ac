import Foundation
import Testing
import PuzzleCore
import PuzzleProtocol
import PuzzleServer
import PuzzleTestSupport

/// What the browser tests need: Debian's `chromium` and `chromium-driver`, and
/// Python's `selenium`. Without them the test is skipped, saying what is
/// missing, except under `CI=true` (`.ci/run` installs them), where it fails.
enum BrowserTools {
    static let ci = ProcessInfo.processInfo.environment["CI"] == "true"

    static let missing: String? = {
        var absent: [String] = []
        if executable("chromium") == nil { absent.append("chromium (apt-get install chromium)") }
        if executable("chromedriver") == nil { absent.append("chromedriver (apt-get install chromium-driver)") }
        if !pythonHasSelenium() { absent.append("Python's selenium (pip install selenium)") }
        return absent.isEmpty ? nil : "the browser tests need " + absent.joined(separator: ", ")
    }()

    /// Runs when everything is there, and under CI=true (to fail there).
    static var runs: Bool { missing == nil || ci }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin", "/usr/lib/chromium"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func pythonHasSelenium() -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import selenium"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}

/// The page (Sources/CWebPage/Page) in real headless Chromium against a real
/// in-process server: Tests/Browser/page_test.py drives a phone-sized browser
/// with touch and a laptop-sized one with the mouse, plus a TCP player, and
/// asks this test to restart the server under them (it prints `@restart`,
/// this answers `ok` once the server is back on the same port and data).
/// Screenshots go to /tmp/page-png/.
@Suite(.serialized) struct BrowserPageTests {
    static let rooms: [RoomSpec] = [
        RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3),
        RoomSpec(name: "tiny", kind: .jigsaw, rows: 2, cols: 2, picture: "rings", cyclesPictures: false),
        RoomSpec(name: "quick", kind: .swap, rows: 3, cols: 3, picture: "waves"),
        RoomSpec(name: "turn", kind: .jigsaw, rows: 3, cols: 3, picture: "quilt", rotation: true),
        RoomSpec(name: "keep", kind: .jigsaw, rows: 2, cols: 2, leaseMillis: 4500),
        RoomSpec(name: "big", kind: .jigsaw, rows: 30, cols: 30),
    ]

    private static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/page_test.py").path
    }

    private func startServer(data: String, port: Int) throws -> TestServer {
        // The old listener's port may take a moment to be free again.
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try TestServer(rooms: Self.rooms, dataDirectory: data, seed: 7) { $0.port = port }
            } catch {
                if Date() > deadline { throw error }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    @Test(.enabled(if: BrowserTools.runs, Comment(rawValue: BrowserTools.missing ?? "")))
    func aPhoneALaptopAndATCPPlayerPlayOneRoomAndThePageSolvesAPuzzle() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true, and \(missing)")
            return
        }
        let data = TestServer.temporaryDirectory()
        var server: TestServer? = try TestServer(rooms: Self.rooms, dataDirectory: data, seed: 7)
        let port = server!.port
        defer { server?.stop() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, "--port", "\(port)", "--shots", "/tmp/page-png"]
        let output = Pipe(), input = Pipe()
        let errPath = data + "/page_test.err"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        // A hung browser must not hang the suite.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        defer { watchdog.cancel() }

        var passed = false, restarts = 0, pending = Data()
        let reader = output.fileHandleForReading
        reading: while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                switch line {
                case "@restart":
                    server?.stop()
                    server = nil
                    var answer = "ok"
                    do { server = try startServer(data: data, port: port) } catch { answer = "error \(error)" }
                    restarts += 1
                    input.fileHandleForWriting.write(Data((answer + "\n").utf8))
                case "@passed":
                    passed = true
                    break reading
                default:
                    continue
                }
            }
        }
        process.waitUntilExit()
        let log = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // The reason first (the log's tail is the pages' last lines, which can push it out).
        let reasons = log.split(separator: "\n").filter { $0.contains("FAILED") }.joined(separator: "\n")
        #expect(process.terminationStatus == 0 && passed,
                "page_test.py failed (status \(process.terminationStatus)): \(reasons)\n\(log.suffix(4000))")
        #expect(restarts == 1, "the server was restarted \(restarts) times, not once")
    }
}
