import Foundation

/// Why the `puzzle` executable could not be found.
public struct PuzzleExecutableError: Error, CustomStringConvertible {
    public var description: String
}

/// The real `puzzle` binary, for tests that run it as a child process.
public enum PuzzleExecutable {
    /// `$PUZZLE_EXECUTABLE` if set, else the one built next to the running test
    /// bundle (the build directory `swift test` uses).
    public static func url() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["PUZZLE_EXECUTABLE"] {
            return URL(fileURLWithPath: path)
        }
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("puzzle") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw PuzzleExecutableError(description: "the puzzle executable was not found next to the test bundle (looked at \(candidates.map(\.path))); build the whole package (swift build) or set PUZZLE_EXECUTABLE")
        }
        return found
    }
}
