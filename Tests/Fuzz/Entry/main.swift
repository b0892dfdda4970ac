// The fuzzer executable: `puzzle-fuzz TARGET [libFuzzer options and corpus dirs]`
// runs libFuzzer on one FuzzTarget; `puzzle-fuzz --write-seeds TARGET DIR REPO`
// writes that target's seed inputs into DIR. Built only by Tests/Fuzz/run-fuzzers.sh.
import CFuzzerDriver
import Foundation
import PuzzleFuzzChecks

func usage() -> Never {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: puzzle-fuzz \(names) [libFuzzer options] [corpus dirs]\n       puzzle-fuzz --write-seeds TARGET DIR REPOSITORY\n".utf8))
    exit(2)
}

var arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "--write-seeds" {
    guard let target = FuzzTarget(rawValue: arguments[2]) else { usage() }
    for seed in FuzzSeeds.seeds(for: target, repository: arguments[4]) {
        _ = FileManager.default.createFile(atPath: arguments[3] + "/" + seed.name, contents: Data(seed.bytes))
    }
    exit(0)
}
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else { usage() }

/// Read by the C callback, which cannot capture anything.
nonisolated(unsafe) var selectedTarget = target

// libFuzzer gets our argv without the target name.
var driverArguments = [arguments[0]] + arguments.dropFirst(2)
var cStrings: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
var argc = CInt(driverArguments.count)
let status = cStrings.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        do {
            try selectedTarget.check(input)
        } catch {
            // A trap is what libFuzzer records as a crash, with the input saved.
            fatalError("\(error)")
        }
        return 0
    }
}
exit(status)
