import Foundation
import PuzzleSystem

/// `puzzle bench --io-compare`: the measurement behind the server's choice of
/// event loop. The same relay room (every line from any member goes to all
/// members, each turn's lines encoded once, one gathered send per member) is
/// served by an epoll loop and by Dispatch sources, in this process on
/// 127.0.0.1, and driven by the same load; the table compares deliveries per
/// second, latency, and the relay's CPU.
public enum IOLoopComparison {
    /// Why a run could not be made.
    public enum Failure: Error, CustomStringConvertible {
        case system(Errno)
        case membersNotAccepted(Int)

        public var description: String {
            switch self {
            case .system(let e): return "system error: \(e)"
            case .membersNotAccepted(let n): return "the relay did not accept \(n) connections in time"
            }
        }
    }

    /// One run: starts the relay, connects the driver, measures, stops both.
    public static func run(_ variant: IOLoopVariant, members: Int, rate: Int?, seconds: Double,
                           warmup: Double, window: Int) throws(Failure) -> IOLoopRunResult {
        let relay: any IOLoopRelay
        do { relay = try variant.start() } catch { throw .system(error) }
        let driver: IOLoopLoadDriver
        do {
            driver = try IOLoopLoadDriver(port: relay.port, members: members, rate: rate, window: window)
        } catch {
            _ = relay.stop()
            throw .system(error)
        }
        // Lines broadcast before a member is accepted would never reach it.
        guard relay.waitForMembers(members, timeoutMillis: 10_000) else {
            driver.close()
            _ = relay.stop()
            throw .membersNotAccepted(members)
        }
        let outcome: IOLoopLoadDriver.Outcome
        do {
            outcome = try driver.run(warmup: warmup, seconds: seconds)
        } catch {
            driver.close()
            _ = relay.stop()
            throw .system(error)
        }
        // Stop the relay first: closing the clients first would count their EOFs as relay work.
        let relayed = relay.stop()
        driver.close()
        return IOLoopRunResult(
            variant: variant, members: members, rate: rate, seconds: outcome.windowSeconds,
            linesSent: outcome.linesInWindow, deliveries: outcome.deliveriesInWindow, latency: outcome.latency,
            processCPU: outcome.processCPU, driverCPU: outcome.driverCPU,
            totalLinesSent: outcome.totalLinesSent, totalDeliveries: outcome.totalDeliveries,
            unexpectedLines: outcome.unexpected, linesRelayed: relayed)
    }

    /// Runs every setting `runs` times, alternating the variants so that
    /// machine noise hits both alike, printing each run and then the medians.
    /// Returns 0, 1 if a run failed or lost lines, 2 on bad usage.
    public static func command(_ args: [String]) -> Int32 {
        let options: IOLoopOptions
        do {
            guard let parsed = try IOLoopOptions.parse(args) else {
                print(IOLoopOptions.usage)
                return 0
            }
            options = parsed
        } catch {
            FileHandle.standardError.write(Data("puzzle bench: \(error)\n\n\(IOLoopOptions.usage)\n".utf8))
            return 2
        }
        print("io-compare: \(options.seconds) s measured after \(options.warmup) s warm-up, window \(options.window) lines, \(options.runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        print(IOLoopRunResult.header)
        var results: [IOLoopRunResult] = []
        var failed = false
        for members in options.members {
            for rate in options.rates {
                for _ in 0..<options.runs {
                    for variant in options.variants {
                        do {
                            let r = try run(variant, members: members, rate: rate, seconds: options.seconds,
                                            warmup: options.warmup, window: options.window)
                            print(r.row)
                            if !r.complete { failed = true }
                            results.append(r)
                        } catch {
                            print("\(variant.rawValue) members=\(members): \(error)")
                            failed = true
                        }
                    }
                }
            }
        }
        print("")
        print(IOLoopRunResult.summaryText(results))
        return failed ? 1 : 0
    }
}
