/// The outcome of a load test: what was asked, what was measured, and the
/// end checks. Built once the run is over; printed as a table or JSON.
public struct LoadReport: Sendable {
    public var bots: Int
    public var rooms: Int
    public var board: String
    public var steps: Int
    /// Target drags per second, nil for `--rate max`.
    public var targetRate: Double?
    public var duration: Double
    public var warmup: Double
    public var server: String
    /// How the bots connected: "tcp" (line clients) or "websocket" (`--websocket`).
    public var transport = "tcp"

    // Measured window.
    public var dragsSent: Int
    public var dragsOK: Int
    public var dragsRefused: Int
    public var deliveries: Int
    /// Sequenced event lines (all but drags and chat) the bots received.
    public var eventLines: Int
    public var grabsOK: Int
    public var dropsOK: Int
    public var heldRefusals: Int
    public var rateLimited: Int
    public var errors: Int
    public var skippedSlots: Int
    public var reply: LatencySummary
    public var broadcast: LatencySummary
    var replyHistogram: LatencyHistogram
    var broadcastHistogram: LatencyHistogram

    // Whole run (must add up).
    public var totalDragsSent: Int
    public var totalDragsOK: Int
    public var totalDragsRefused: Int
    public var totalDeliveries: Int
    public var totalExpectedDeliveries: Int
    public var totalErrors: Int
    public var lostHolds: Int
    public var solves: [Int64]

    // End checks.
    public var disconnects: Int
    public var eventGaps: Int
    public var mirrorErrors: Int
    public var unexpectedReplies: Int
    public var digestMismatches: Int
    /// Bots whose JOIN snapshot or event stream differed from their room's
    /// reference mirror (snapshot digest at its seq, or an event line's hash).
    public var viewMismatches: Int
    public var heldAtEnd: Int
    public var pieceErrors: Int
    /// Room mirrors and final snapshots with an unsound part, or a final
    /// snapshot that did not read back or differed from the mirror.
    public var partErrors: Int
    /// Final snapshots read back and compared (one a room).
    public var snapshotsChecked: Int

    // Parts (`--play parts`; counted in the rooms' mirrors, each event once).
    /// How the bots played: "pieces" or "parts".
    public var play: String
    public var merges: Int
    public var partsCarriedIn: Int
    public var piecesCarriedIn: Int
    public var largestPart: Int
    /// Parts left on the table in the final snapshots.
    public var partsAtEnd: Int

    public var notes: [String]

    // Resources.
    public var benchCPUSeconds: Double
    /// CPU seconds of the bench during play (warm-up and measured), the same
    /// span as `serverCPUSeconds`, to tell which side is the limit.
    public var benchPlayCPUSeconds: Double?
    public var benchPeakRSS: Int
    /// CPU seconds of the server process during play (warm-up and measured) and its
    /// peak RSS (from /proc with `--server-pid`), when known.
    public var serverCPUSeconds: Double?
    public var serverPeakRSS: Int?
    /// The server's own STATS line at the end.
    public var serverStats: String?

    public var dragsPerSecond: Double { Double(dragsOK) / duration }
    public var deliveriesPerSecond: Double { Double(deliveries) / duration }
    /// Every event line the bots received (drags and the rest) a second.
    public var linesPerSecond: Double { Double(deliveries + eventLines) / duration }

    /// Every end check, in order, with whether it passed.
    public var checks: [(name: String, passed: Bool, detail: String)] {
        [
            ("every bot's view equals its room's mirror", viewMismatches == 0, "\(viewMismatches) snapshot or event-line mismatches"),
            ("room mirrors equal the server's digest", digestMismatches == 0 && mirrorErrors == 0, "\(digestMismatches) mismatched, \(mirrorErrors) mirror errors"),
            ("no piece lost or duplicated", pieceErrors == 0, "\(pieceErrors) bad room mirrors"),
            ("every part sound, final snapshots equal the mirrors", partErrors == 0 && snapshotsChecked == rooms,
             "\(partErrors) bad mirrors or snapshots, \(snapshotsChecked) of \(rooms) snapshots checked"),
            ("no lock left held", heldAtEnd == 0, "\(heldAtEnd) bots saw holds"),
            ("no event gap", eventGaps == 0, "\(eventGaps) gaps"),
            ("no disconnect", disconnects == 0, "\(disconnects) disconnects"),
            ("every reply matched a request", unexpectedReplies == 0, "\(unexpectedReplies) unmatched"),
            ("drags sent = answered", totalDragsSent == totalDragsOK + totalDragsRefused, "\(totalDragsSent) sent, \(totalDragsOK) OK + \(totalDragsRefused) ERR"),
        ]
    }

    public var passed: Bool { checks.allSatisfy(\.passed) }
}
