import Foundation
import Glibc
import Testing
import PuzzleTestSupport
import PuzzleSystem
@testable import PuzzleServer

/// One server per data directory (README, "Reliability"): a second one exits
/// non-zero naming the directory and the holder's pid; the holder is untouched.
@Suite(.serialized) struct DataDirectoryLockTests {
    @Test func secondServerProcessExitsNamingDirectoryAndHolder() throws {
        let data = TestServer.temporaryDirectory()
        let first = try ServerProcess(dataDirectory: data, rooms: ["solo jigsaw 2x2"])
        let second = try ServerProcess.runExpectingExit(dataDirectory: data, rooms: ["solo jigsaw 2x2"])
        #expect(second.status != 0)
        #expect(second.stderr.contains(data), "stderr: \(second.stderr)")
        #expect(second.stderr.contains("pid \(first.process.processIdentifier)"), "stderr: \(second.stderr)")

        // The first server still serves its room.
        let (client, state) = try DurabilityTests.join(first, room: "solo")
        #expect(state.pieceCount == 4)
        #expect(try client.request("PING").reply == "PONG")

        // A holder killed with SIGKILL leaves no stale lock behind.
        try first.kill()
        let third = try ServerProcess(dataDirectory: data, rooms: ["solo jigsaw 2x2"])
        try third.kill()
    }

    @Test func secondInProcessServerIsRefusedUntilTheFirstStops() throws {
        let first = try TestServer()
        let directory = first.config.dataDirectory
        #expect(throws: DataDirectoryLockError.held(directory: directory, pid: ProcessStats.processID)) {
            _ = try PuzzleServer(config: first.config, logger: Logger(level: .error), seed: 1)
        }
        first.stop()
        let again = try TestServer(dataDirectory: directory)
        again.stop()
    }

    /// A child forked by another thread (a test starting `puzzle`) has a copy
    /// of every descriptor until it execs; a stopped server must not leave the
    /// directory locked through that copy. The copy here is a `dup` of the
    /// server's lock descriptor, found through /proc/self/fd.
    @Test func aCopyOfTheLockDescriptorDoesNotKeepTheDirectoryAfterStop() throws {
        let first = try TestServer()
        let directory = first.config.dataDirectory
        let lockPath = URL(fileURLWithPath: directory + "/lock").resolvingSymlinksInPath().path
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { Int32($0) }
        let held = try #require(fds.first { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == lockPath })
        let copy = dup(held)
        try #require(copy >= 0)
        defer { close(copy) }
        first.stop()
        let again = try TestServer(dataDirectory: directory)
        again.stop()
    }
}
