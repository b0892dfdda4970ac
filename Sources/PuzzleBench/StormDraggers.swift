import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleSystem

/// The members of a storm's room who play while the storm comes: each on a
/// thread of its own, grabbing a piece, dragging it in 8 steps (a DRAG every
/// 20 ms, each timed from its send to its `OK dragged`), and dropping it on
/// the table's top row, above the board, over and over.
final class StormDraggers: @unchecked Sendable {
    private let port: Int
    private let room: String
    private let count: Int
    private let rows: Int
    private let cols: Int
    private let lock = NSLock()
    private var running = true
    private var threads: [Thread] = []
    private var done = 0
    /// (when sent, round trip in ms) of every DRAG.
    private var drags: [(at: Int64, millis: Double)] = []
    private(set) var failures: [String] = []

    init(port: Int, room: String, count: Int, rows: Int, cols: Int) {
        self.port = port
        self.room = room
        self.count = count
        self.rows = rows
        self.cols = cols
    }

    private var isRunning: Bool { lock.withLock { running } }

    func start() throws {
        for d in 0..<count {
            let t = Thread { [self] in
                do { try play(d) } catch { lock.withLock { failures.append("dragger \(d): \(error)") } }
                lock.withLock { done += 1 }
            }
            t.stackSize = 1 << 20
            threads.append(t)
            t.start()
        }
    }

    /// Stops the draggers and waits (bounded) for them to finish their piece.
    func stop() {
        lock.withLock { running = false }
        let deadline = MonotonicClock.nowMilliseconds + 10_000
        while lock.withLock({ done < threads.count }) && MonotonicClock.nowMilliseconds < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// The DRAG round trips sent between `from` and `to` (ms of the monotonic clock).
    func samples(from: Int64, to: Int64) -> [Double] {
        lock.withLock { drags.filter { $0.at >= from && $0.at <= to }.map(\.millis) }
    }

    private func play(_ d: Int) throws {
        let c = try LineClient(port: port, name: "dragger\(d)")
        defer { c.close() }
        func expect(_ request: Request) throws { try c.answer(request, timeout: 30) }
        try expect(.hello(version: 2, name: "dragger\(d)"))
        try expect(.join(room: room, password: nil))
        // The table's top row: above the board, so a drop never lands on it.
        let width = try PuzzleSpec(kind: .jigsaw, rows: rows, cols: cols).geometry.width
        var k = 0
        while isRunning {
            // Its own pieces (none another dragger takes), dropped in its own row above the board.
            let piece = (d + k * count) % (rows * cols)
            k += 1
            try expect(.grab(piece))
            for step in 1...8 {
                let sent = MonotonicClock.nowNanoseconds
                try expect(.drag(nil, Point(x: (4 * step + 40 * (k % 4) + 8 * d) % (width - 4), y: 0)))
                let ms = Double(MonotonicClock.nowNanoseconds - sent) / 1e6
                lock.withLock { drags.append((Int64(sent / 1_000_000), ms)) }
                c.events.removeAll(keepingCapacity: true)
                Thread.sleep(forTimeInterval: 0.02)
            }
            try expect(.drop(nil))
        }
    }
}
