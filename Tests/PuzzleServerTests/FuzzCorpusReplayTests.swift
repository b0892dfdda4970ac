import Foundation
import Testing
import PuzzleFuzzChecks

/// Every fuzz target's property, checked on every `swift test` without the
/// fuzzer: on the target's generated seeds and on the inputs kept in
/// `Tests/Fuzz/corpus/<target>/` because they once broke something.
/// Serialized: the store target reuses one data directory per process.
@Suite(.serialized) struct FuzzCorpusReplayTests {
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndSavedInputsKeepTheProperty(_ target: FuzzTarget) throws {
        var inputs = FuzzSeeds.seeds(for: target, repository: Self.repository)
        let saved = Self.repository + "/Tests/Fuzz/corpus/" + target.rawValue
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: saved)) ?? []).sorted() {
            inputs.append((name, Array(try Data(contentsOf: URL(fileURLWithPath: saved + "/" + name)))))
        }
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do { try target.check(bytes) } catch { Issue.record("\(name): \(error)") }
        }
        target.removeScratchFiles()
    }
}
