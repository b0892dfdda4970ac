import Foundation

/// The CPU one telnet session's frames took to make (the scene, its cells, the diff;
/// the thread's own CPU time, not the wall time other threads ran meanwhile):
/// told in the log when the session ends, so an operator (and the README's figures) can
/// see what drawing for telnet players costs. At most `capacity` samples are kept: a
/// long session keeps a sample every so often, still spread over its whole life.
struct FrameTimes {
    static let capacity = 8192
    private(set) var count = 0
    private(set) var bytes = 0
    private var micros: [Int32] = []
    private var stride = 1

    mutating func add(micros value: Int64, bytes written: Int) {
        count += 1
        bytes += written
        guard count % stride == 0 else { return }
        micros.append(Int32(clamping: value))
        if micros.count >= Self.capacity {
            // Every other sample goes, and from now on every other frame is kept.
            micros = micros.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            stride *= 2
        }
    }

    /// "N frames, median A ms, p99 B ms, C bytes" (or "no frames").
    var summary: String {
        guard !micros.isEmpty else { return "no frames" }
        let sorted = micros.sorted()
        func ms(_ q: Double) -> String {
            String(format: "%.2f", Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1000)
        }
        return "\(count) frames, median \(ms(0.5)) ms, p99 \(ms(0.99)) ms, \(bytes / max(1, count)) bytes a frame"
    }
}
