import Foundation
import Testing

@testable import PuzzleServer

/// Collects logged lines; locked because a Logger may be used from many threads.
private final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] {
        lock.withLock { stored }
    }

    func append(_ line: String) {
        lock.withLock { stored.append(line) }
    }
}

@Suite("Logger")
struct LoggerTests {
    @Test func lineFormat() {
        let collector = LineCollector()
        let logger = Logger(level: .debug, now: { "2026-11-21T21:51:23.456Z" }, sink: collector.append)
        logger.info("listening on 0.0.0.0:7171")
        logger.warn("slow reader")
        logger.error("disk full")
        logger.debug("grab 3")
        #expect(collector.lines == [
            "2026-11-21T21:51:23.456Z INFO  listening on 0.0.0.0:7171",
            "2026-11-21T21:51:23.456Z WARN  slow reader",
            "2026-11-21T21:51:23.456Z ERROR disk full",
            "2026-11-21T21:51:23.456Z DEBUG grab 3",
        ])
    }

    @Test func messagesBelowLevelAreNeitherFormattedNorTimestamped() {
        let collector = LineCollector()
        let clockReads = LineCollector()
        let logger = Logger(level: .warn, now: { clockReads.append("read"); return "T" }, sink: collector.append)
        var formatted = 0
        func message(_ text: String) -> String {
            formatted += 1
            return text
        }
        logger.debug(message("d"))
        logger.info(message("i"))
        logger.log(.info, message("i2"))
        #expect(formatted == 0)
        #expect(clockReads.lines.isEmpty)
        logger.warn(message("w"))
        logger.log(.error, message("e"))
        #expect(formatted == 2)
        #expect(collector.lines == ["T WARN  w", "T ERROR e"])
        #expect(!logger.isEnabled(.info) && logger.isEnabled(.warn))
    }

    @Test func levelsAreOrderedAndNamed() {
        #expect(LogLevel.debug < .info && LogLevel.info < .warn && LogLevel.warn < .error)
        for level in LogLevel.allCases {
            #expect(LogLevel(name: level.name) == level)
            #expect(level.label.count == 5)
        }
        #expect(LogLevel(name: "INFO") == .info)
        #expect(LogLevel(name: "verbose") == nil)
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        #expect(Logger.timestamp(millisecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Logger.timestamp(millisecondsSince1970: 1_795_297_883_456) == "2026-11-21T21:51:23.456Z")
        #expect(Logger.timestamp(millisecondsSince1970: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(Logger.timestamp(millisecondsSince1970: 4_107_542_399_999) == "2100-02-28T23:59:59.999Z")
        #expect(Logger.timestamp(millisecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
    }

    @Test func timestampsAgreeWithFoundation() {
        let formatter = ISO8601DateFormatter()
        // Whole seconds only: Foundation's rounding of fractions through Double is not ours to test.
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var millis: Int64 = -2_000_000_000_123
        while millis < 5_000_000_000_000 {
            let milli = (millis % 1000 + 1000) % 1000
            let date = Date(timeIntervalSince1970: Double((millis - milli) / 1000))
            let ours = Logger.timestamp(millisecondsSince1970: millis)
            let (seconds, fraction) = (ours.prefix(19), ours.dropFirst(20).prefix(3))
            #expect(seconds + "Z" == formatter.string(from: date), "\(millis)")
            #expect(Int64(fraction) == milli, "\(millis)")
            millis += 12_345_678_901
        }
    }

    @Test func wallClockTimestampHasTheFixedShape() {
        let stamp = Logger.wallClockTimestamp()
        let shape = stamp.map { $0.isNumber ? "9" : String($0) }.joined()
        #expect(shape == "9999-99-99T99:99:99.999Z")
        #expect(stamp >= "2024")
    }

    @Test func concurrentLoggingKeepsEveryLine() async {
        let collector = LineCollector()
        let logger = Logger(level: .info, now: { "T" }, sink: collector.append)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 {
                        logger.info("\(task)-\(index)")
                    }
                }
            }
        }
        #expect(collector.lines.count == 800)
        #expect(Set(collector.lines).count == 800)
    }
}
