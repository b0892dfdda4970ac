import PuzzleProtocol

/// Counts the `dragged` events the bots receive and times each from the
/// sender's intended send time of that step (the broadcast latency).
///
/// This is the bulk of the traffic (millions of lines a second): the
/// sender is found through a flat table by player id, its step's time in the
/// shared `PathTable`, and nothing is allocated.
final class DragDeliveries {
    let paths: PathTable
    let tally: LoadTally
    let clock: RunClock
    /// Bot index by server player id minus `playerBase`; -1 for another player.
    @exclusivity(unchecked) private var botByPlayer: [Int32] = []
    @exclusivity(unchecked) private var playerBase = 0

    init(paths: PathTable, tally: LoadTally) {
        self.paths = paths
        self.tally = tally
        clock = tally.clock
    }

    /// Learns the bots' player ids (once all have joined).
    func index(_ bots: [BenchBot]) {
        let ids = bots.map(\.player)
        playerBase = ids.min() ?? 0
        botByPlayer = [Int32](repeating: -1, count: (ids.max() ?? 0) - playerBase + 1)
        for bot in bots { botByPlayer[bot.player - playerBase] = Int32(bot.index) }
    }

    /// `bot` received `EV <seq> dragged <piece> <id> <x> <y> ...`; `scanner`
    /// stands after the event's name.
    @inline(__always)
    func received(_ bot: BenchBot, seq: UInt64, _ scanner: LineScanner, _ line: LineScanner) {
        var s = scanner
        guard let piece = s.int(), let id = s.int(), let x = s.int(), let y = s.int() else { return tally.badEvent(bot: bot.index, line) }
        // A drag carries the current number: a higher one means a missed event.
        if seq > bot.lastSeq {
            tally.failures.eventGaps += 1
            tally.note("bot\(bot.index): drag at seq \(seq) after seq \(bot.lastSeq)")
        }
        guard id != bot.player else { return }
        let t = clock.now
        tally.total.deliveries += 1
        if clock.inWindow(t) { tally.window.deliveries += 1 }
        let i = id &- playerBase
        guard i >= 0 && i < botByPlayer.count else { return }
        let b = botByPlayer[i]
        guard b >= 0, let sent = paths.intendedTime(bot: Int(b), piece: piece, x: x, y: y), clock.inWindow(sent) else { return }
        tally.broadcastLatency.record(t > sent ? (t &- sent) / 1000 : 0)
    }
}
