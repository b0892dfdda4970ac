import Foundation
import Testing
import PuzzleSystem
import PuzzleTestSupport
@testable import PuzzleServer

/// `puzzle serve` as a user runs it: the real binary, its exit status and what
/// it prints, for mistakes that must stop it before it serves.
@Suite struct ServeCommandTests {
    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "puzzle-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func helpPrintsItsUsageLineOnce() throws {
        let run = try PuzzleRun(["serve", "--help"], in: try scratchDirectory())
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "usage:").count - 1 == 1, "\(run.stdout.prefix(200))")
        #expect(run.stdout.hasPrefix("usage: puzzle serve"))
    }

    @Test func emptyDataDirectoryIsRefused() throws {
        let work = try scratchDirectory()
        for args in [["--data", ""], ["--data="]] {
            let run = try PuzzleRun(["serve", "--port", "0", "--bind", "127.0.0.1"] + args, in: work)
            #expect(run.status == 2, "\(args): status \(run.status), stderr \(run.stderr)")
            #expect(run.stderr.contains("--data"), "\(run.stderr)")
        }
        let config = work + "/empty-data.conf"
        try "data_directory =\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try PuzzleRun(["serve", "--config", config, "--port", "0", "--bind", "127.0.0.1"], in: work)
        #expect(run.status == 2 && run.stderr.contains("empty-data.conf:1:"), "status \(run.status), stderr \(run.stderr)")
    }

    @Test func missingPictureFileIsAConfigError() throws {
        let work = try scratchDirectory()
        let config = work + "/pictures.conf"
        try "picture = ghost nowhere/ghost.ppm\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try PuzzleRun(["serve", "--config", config, "--port", "0", "--bind", "127.0.0.1", "--data", work + "/data"], in: work)
        #expect(run.status == 2, "status \(run.status), stderr \(run.stderr)")
        #expect(run.stderr.contains("nowhere/ghost.ppm"), "\(run.stderr)")
    }

    @Test func addressInUseNamesTheAddressAndPort() throws {
        let work = try scratchDirectory()
        let taken = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { try? taken.close() }
        let port = try taken.localPort
        let run = try PuzzleRun(["serve", "--port", "\(port)", "--bind", "127.0.0.1", "--data", work + "/data"], in: work)
        #expect(run.status == 1, "status \(run.status), stderr \(run.stderr)")
        #expect(run.stderr.contains("127.0.0.1:\(port)") && run.stderr.contains("in use"), "\(run.stderr)")
    }
}
