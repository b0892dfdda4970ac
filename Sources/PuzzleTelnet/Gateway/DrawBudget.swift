import Foundation

/// The CPU all telnet sessions together may spend drawing: `share` of one core. Each
/// session reports what its frames cost; each session's frames are spaced so that the
/// sessions' sum stays within the share (30 a second at most, fewer as sessions or their
/// cost grow). With few players every one gets every frame; with many in a busy room
/// each gets fewer, and the room's broadcast keeps its CPU.
///
/// Thread-safe: every session's thread reports to it.
final class DrawBudget: @unchecked Sendable {
    /// The fastest a session draws.
    static let minimumInterval: Int64 = 33
    /// Of one core.
    let share: Double
    private let lock = NSLock()
    /// Average frame cost (CPU microseconds) per session, smoothed.
    private var costs: [UInt64: Double] = [:]

    init(share: Double) {
        self.share = share
    }

    /// Session `id`'s last frame cost `micros` of CPU.
    func spent(_ micros: Int64, by id: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        let old = costs[id] ?? Double(micros)
        costs[id] = old * 0.9 + Double(micros) * 0.1
    }

    /// The session has ended.
    func forget(_ id: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        costs[id] = nil
    }

    /// Milliseconds between two frames of any session now: all sessions' average frame
    /// costs, summed, spread over the share.
    var interval: Int64 {
        lock.lock()
        let total = costs.values.reduce(0, +)
        lock.unlock()
        // total µs per round of frames / share = µs a round may take.
        return max(Self.minimumInterval, Int64(total / share / 1000))
    }
}
