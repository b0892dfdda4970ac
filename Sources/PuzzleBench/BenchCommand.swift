import Foundation

/// `puzzle bench`: the load tester (bots against a server) and, with
/// `--core`, the rules-engine benchmark; `--decode`, the picture decoders.
public enum BenchCommand {
    /// Runs the command; returns the process exit status (0 all checks
    /// passed, 1 a check failed or the run could not start, 2 bad usage).
    public static func run(_ args: [String]) -> Int32 {
        let options: BenchOptions
        do {
            switch try BenchOptions.parse(args) {
            case .help:
                print(BenchOptions.usage)
                return 0
            case .run(let o): options = o
            }
        } catch {
            FileHandle.standardError.write(Data("puzzle bench: \(error)\n\n\(BenchOptions.usage)\n".utf8))
            return 2
        }
        if let file = options.decodeFile { return DecodeBenchmark.command(file: file, runs: options.decodeRuns, output: options.decodeOutput) }
        if options.core { return CoreBenchmark.command(options) }
        if options.render { return RenderBenchmark.command(options) }
        if options.joinBytes { return JoinBytes.command(options) }
        if options.stormClients > 0 { return JoinStorm.command(options) }
        if let n = options.idleConnections { return IdleProbe.command(options, count: n) }
        return LoadTest.command(options)
    }
}
