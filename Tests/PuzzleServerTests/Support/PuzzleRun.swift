import Foundation
import PuzzleSystem
import PuzzleTestSupport

/// One run of the real `puzzle` executable to completion: its exit status and
/// output. A run still going after the deadline is killed and reported, so a
/// command that should have refused to start cannot hang the tests.
struct PuzzleRun {
    let status: Int32
    let stdout: String
    let stderr: String

    init(_ arguments: [String], in directory: String, timeout: Double = 30) throws {
        let process = Process()
        process.executableURL = try PuzzleExecutable.url()
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.arguments = arguments
        // Files, not pipes: nothing has to be read while the process runs.
        let outPath = directory + "/run-\(UUID().uuidString).out", errPath = outPath + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + timeout) != .success {
            try? Signals.send(.kill, to: process.processIdentifier)
            process.waitUntilExit()
            throw ServerProcessError(description: "puzzle \(arguments) still running after \(timeout) s; stderr: \((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")")
        }
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    }
}
