import Foundation
@testable import PuzzleSystem
import PuzzleTestSupport

/// Why a `puzzle serve` child process could not be used.
struct ServerProcessError: Error, CustomStringConvertible {
    var description: String
}

/// The real `puzzle` executable running `puzzle serve` as a child process, on
/// 127.0.0.1 with an ephemeral port, for tests that kill it.
///
/// Its working directory is a fresh directory, so no `Config/puzzle.conf` is
/// read: only built-in defaults and the flags given apply. Its stderr goes to
/// a log file whose tail is quoted when something goes wrong.
final class ServerProcess {
    let process = Process()
    let port: Int
    let dataDirectory: String
    let logPath: String
    /// Kept open so that later writes to stdout cannot fail for want of a reader.
    private let stdout = Pipe()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `puzzle serve` and waits (bounded) for its banner to learn the port.
    /// `seed` fixes new rooms' layouts, so that what a test sets up is what it gets.
    init(dataDirectory: String, rooms: [String], seed: UInt64 = 7, extraArguments: [String] = [], timeout: Double = 20) throws {
        self.dataDirectory = dataDirectory
        let workDirectory = NSTemporaryDirectory() + "puzzle-proc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        logPath = workDirectory + "/stderr.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)

        process.executableURL = try PuzzleExecutable.url()
        process.currentDirectoryURL = URL(fileURLWithPath: workDirectory)
        process.arguments = ["serve", "--port", "0", "--bind", "127.0.0.1", "--data", dataDirectory, "--log-level", "warn",
                             "--seed", String(seed)]
            + rooms.flatMap { ["--room", $0] } + extraArguments
        process.standardOutput = stdout
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let banner: String
        do {
            banner = try Self.readLine(from: stdout.fileHandleForReading, timeout: timeout)
        } catch {
            if process.isRunning { try? Signals.send(.kill, to: process.processIdentifier) }
            process.waitUntilExit()
            throw ServerProcessError(description: "\(error); stderr: \(Self.tail(of: logPath))")
        }
        // "puzzle-room listening on 127.0.0.1:PORT (rooms: ...)", then how to play
        guard banner.hasPrefix("puzzle-room listening on 127.0.0.1:"),
            let address = banner.split(separator: " ").dropFirst(3).first,
            let port = address.split(separator: ":").last.flatMap({ Int($0) }), port > 0
        else {
            try? Signals.send(.kill, to: process.processIdentifier)
            process.waitUntilExit()
            throw ServerProcessError(description: "unexpected banner: \(banner)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            try? Signals.send(.kill, to: process.processIdentifier)
            process.waitUntilExit()
        }
    }

    /// Runs `puzzle serve` on `dataDirectory` for a test that expects it to
    /// refuse to start: waits (bounded) for it to exit, killing it if it does
    /// not, and returns its exit status and everything it wrote to stderr.
    static func runExpectingExit(dataDirectory: String, rooms: [String], extraArguments: [String] = [],
                                 timeout: Double = 20) throws -> (status: Int32, stderr: String) {
        let workDirectory = NSTemporaryDirectory() + "puzzle-proc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let logPath = workDirectory + "/stderr.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = Process()
        process.executableURL = try PuzzleExecutable.url()
        process.currentDirectoryURL = URL(fileURLWithPath: workDirectory)
        process.arguments = ["serve", "--port", "0", "--bind", "127.0.0.1", "--data", dataDirectory, "--log-level", "warn"]
            + rooms.flatMap { ["--room", $0] } + extraArguments
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard exited.wait(timeout: .now() + timeout) == .success else {
            try? Signals.send(.kill, to: process.processIdentifier)
            process.waitUntilExit()
            throw ServerProcessError(description: "server did not exit within \(timeout) s; stderr: \(tail(of: logPath))")
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stderr)
    }

    /// SIGKILL now, then reap the process.
    func kill() throws {
        try Signals.send(.kill, to: process.processIdentifier)
        process.waitUntilExit()
    }

    /// Waits (bounded) for the process to exit and returns its status.
    func waitForExit(timeout: Double = 20) throws -> (status: Int32, reason: Process.TerminationReason) {
        guard exited.wait(timeout: .now() + timeout) == .success else {
            throw ServerProcessError(description: "server did not exit within \(timeout) s; stderr: \(stderrTail)")
        }
        exited.signal()  // later waits return at once
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason)
    }

    /// The last lines the server wrote to stderr.
    var stderrTail: String { Self.tail(of: logPath) }

    private static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(10).joined(separator: "\n")
    }

    /// One line from a pipe, waiting at most `timeout` seconds.
    private static func readLine(from handle: FileHandle, timeout: Double) throws -> String {
        let fd = FileDescriptor(rawValue: handle.fileDescriptor)
        try fd.setNonBlocking()
        let queue = try EpollQueue()
        try queue.register(fd, interest: .readable, token: 1)
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !bytes.contains(0x0A) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw ServerProcessError(description: "no banner line on stdout within \(timeout) s (got \(String(decoding: bytes, as: UTF8.self).debugDescription))")
            }
            _ = try queue.wait(timeoutMillis: Int32(min(left, 1) * 1000) + 1)
            switch try fd.read(appendingTo: &bytes) {
            case .processed(0): throw ServerProcessError(description: "stdout closed before the banner")
            case .processed, .wouldBlock: continue
            }
        }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }
}
