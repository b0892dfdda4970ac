import Foundation
import PuzzleCore

extension CoreBenchmark {
    /// Runs `runs` timed runs and returns the one with the median drag rate
    /// (after one short untimed warm-up run).
    public func medianRun(seconds: Double, runs: Int = 5) throws -> (median: Result, all: [Result]) {
        _ = try run(seconds: min(0.3, seconds))
        var all: [Result] = []
        for _ in 0..<runs { all.append(try run(seconds: seconds)) }
        let sorted = all.sorted { $0.dragsPerSecond < $1.dragsPerSecond }
        return (sorted[sorted.count / 2], all)
    }

    /// `puzzle bench --core`: both board kinds, medians of five runs, a table
    /// (or JSON); then big parts (`PartBenchmark`), on the largest even
    /// board side up to `--size`. Exit status 0.
    static func command(_ options: BenchOptions) -> Int32 {
        var rows: [(PuzzleKind, Result, [Result])] = []
        for kind in [PuzzleKind.jigsaw, .swap] {
            let bench = CoreBenchmark(kind: kind, size: options.coreSize, steps: options.steps, seed: options.seed)
            do {
                let (median, all) = try bench.medianRun(seconds: options.coreSeconds)
                rows.append((kind, median, all))
            } catch {
                FileHandle.standardError.write(Data("puzzle bench --core: \(error)\n".utf8))
                return 1
            }
        }
        let partSize = max(4, options.coreSize - options.coreSize % 2)
        let parts: PartBenchmark.Result
        do {
            parts = try PartBenchmark(size: partSize, seed: options.seed).run()
        } catch {
            FileHandle.standardError.write(Data("puzzle bench --core: parts: \(error)\n".utf8))
            return 1
        }
        func us(_ t: PartBenchmark.Timing) -> String { String(format: "%.1f", Double(t.medianNanos) / 1000) }
        if options.json {
            func timing(_ t: PartBenchmark.Timing) -> String {
                "{\"median_ns\":\(t.medianNanos),\"min_ns\":\(t.minNanos),\"max_ns\":\(t.maxNanos),\"samples\":\(t.samples)}"
            }
            let partsJSON = "{\"size\":\(partSize),\"part_pieces\":\(parts.partPieces),\"merge_drop\":\(timing(parts.mergeDrop)),\"grab\":\(timing(parts.grab)),\"drag_step\":\(timing(parts.dragStep)),\"drag_step_over_cells\":\(timing(parts.dragStepOverCells)),\"drop_into_board\":\(timing(parts.dropIntoBoard))}"
            let items = rows.map { kind, r, all in
                "{\"kind\":\"\(kind.rawValue)\",\"size\":\(options.coreSize),\"drag_steps_per_sec\":\(Int(r.dragsPerSecond)),\"grabs_per_sec\":\(Int(r.grabsPerSecond)),\"drops_per_sec\":\(Int(r.dropsPerSecond)),\"ops_per_sec\":\(Int(r.operationsPerSecond)),\"solves\":\(r.solves),\"refused\":\(r.refused),\"runs_drag_steps_per_sec\":[\(all.map { String(Int($0.dragsPerSecond)) }.joined(separator: ","))]}"
            }
            print("{\"core\":[\(items.joined(separator: ","))],\"parts\":\(partsJSON)}")
            return 0
        }
        print("core benchmark: \(options.coreSize)x\(options.coreSize), 64 players, \(options.steps) drag steps per grab, median of 5 runs of \(options.coreSeconds) s")
        print("kind      drag steps/s        grabs/s        drops/s     all ops/s  solves")
        for (kind, r, _) in rows {
            print(pad(kind.rawValue, 6) + lpad(group(r.dragsPerSecond), 16) + lpad(group(r.grabsPerSecond), 15)
                  + lpad(group(r.dropsPerSecond), 15) + lpad(group(r.operationsPerSecond), 14) + lpad("\(r.solves)", 8))
        }
        let n = parts.partPieces
        print("")
        print("parts, jigsaw \(partSize)x\(partSize) (lower half placed), median us (min-max) of \(parts.mergeDrop.samples) drops or \(parts.grab.samples) grabs and drag steps (goal: 1,000 us)")
        for (what, t) in [("drop merging two \(group(Double(n)))-piece parts", parts.mergeDrop),
                          ("grab of a \(group(Double(2 * n)))-piece part", parts.grab),
                          ("drag step of it on the table", parts.dragStep),
                          ("drag step of it over its cells", parts.dragStepOverCells),
                          ("drop of it into the board", parts.dropIntoBoard)] {
            print(pad(what, 40) + lpad(us(t), 10) + "  (\(String(format: "%.1f", Double(t.minNanos) / 1000))-\(String(format: "%.1f", Double(t.maxNanos) / 1000)))")
        }
        return 0
    }
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }

/// 1234567.8 -> "1,234,568".
func group(_ value: Double) -> String {
    let n = Int(value.rounded())
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
}
