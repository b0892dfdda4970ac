import Foundation
import PuzzleImages
import PuzzleSystem

/// `puzzle bench --decode FILE [--runs N]`: how long our decoder takes on one
/// file (read once; decoded N times; the median and the fastest reported),
/// to set beside `djpeg` or `pngtopnm` on the same file.
enum DecodeBenchmark {
    static func command(file: String, runs: Int) -> Int32 {
        guard let data = FileManager.default.contents(atPath: file) else {
            FileHandle.standardError.write(Data("puzzle bench --decode: cannot read \(file)\n".utf8))
            return 1
        }
        let bytes = [UInt8](data)
        var times: [Double] = []
        var size = (0, 0)
        for _ in 0..<runs {
            let start = MonotonicClock.nowNanoseconds
            do {
                let image = try ImageDecoder.decode(bytes)
                size = (image.width, image.height)
            } catch {
                FileHandle.standardError.write(Data("puzzle bench --decode: \(file): \(error)\n".utf8))
                return 1
            }
            times.append(Double(MonotonicClock.nowNanoseconds - start) / 1e6)
        }
        times.sort()
        let format = ImageFormat.sniff(bytes)?.rawValue ?? "?"
        print(String(format: "decode %@ %@ %dx%d (%d bytes, %.1f Mpx): median %.1f ms, fastest %.1f ms over %d runs",
                     file, format, size.0, size.1, bytes.count, Double(size.0 * size.1) / 1e6, times[times.count / 2], times[0], runs))
        return 0
    }
}
