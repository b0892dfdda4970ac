import PuzzleCore
import Testing
@testable import PuzzleBench

/// Short real runs against the in-process server: the end checks must pass
/// and the counters must add up.
@Suite(.serialized) struct LoadTestRunTests {
    func options(kind: PuzzleKind, rooms: Int = 1) -> BenchOptions {
        var o = BenchOptions()
        o.bots = 20
        o.rooms = rooms
        o.rate = .perSecond(400)
        o.duration = 2
        o.warmup = 0.5
        o.kind = kind
        o.rows = 5
        o.cols = 5
        o.steps = 4
        o.progress = false
        return o
    }

    @Test(arguments: [PuzzleKind.jigsaw, .swap])
    func shortRunPassesItsChecksAndAddsUp(kind: PuzzleKind) throws {
        let r = try LoadTest.run(options(kind: kind))
        #expect(r.passed, "\(r.text)")
        #expect(r.digestMismatches == 0 && r.heldAtEnd == 0 && r.pieceErrors == 0 && r.eventGaps == 0 && r.disconnects == 0)
        // Every drag sent got exactly one answer.
        #expect(r.totalDragsSent == r.totalDragsOK + r.totalDragsRefused)
        #expect(r.totalDragsSent > 0)
        // Nobody was slow at this rate, so nothing was coalesced: each accepted
        // drag reached each of the other 19 members exactly once.
        #expect(r.totalExpectedDeliveries == r.totalDragsOK * 19)
        #expect(r.totalDeliveries == r.totalExpectedDeliveries)
        // One reply sample per drag answered OK in the window; the window
        // counts are a part of the totals.
        #expect(r.reply.count == UInt64(r.dragsOK))
        #expect(r.dragsOK <= r.totalDragsOK && r.deliveries <= r.totalDeliveries)
        #expect(r.broadcast.count > 0 && r.broadcast.count <= UInt64(r.deliveries) + UInt64(r.dragsOK) * 19)
        // Open loop at 400/s for 2 s: close to 800 drags intended in the window
        // (slots skipped while no piece is free are not sent).
        #expect(r.dragsSent + r.skippedSlots >= 700 && r.dragsSent <= 820, "\(r.dragsSent) sent, \(r.skippedSlots) skipped")
        #expect(r.errors == 0 && r.totalErrors == 0)
        #expect(r.rateLimited == 0)
        #expect(r.dropsOK > 0)
        // A 5x5 jigsaw at this pace is solved, and play goes on with the next.
        // (Swap tiles held by others block swaps, so 20 bots on 25 tiles may not finish.)
        if kind == .jigsaw { #expect(!r.solves.isEmpty) }
    }

    @Test func botsSpreadOverRooms() throws {
        var o = options(kind: .jigsaw, rooms: 4)
        o.rate = .max
        o.duration = 1
        let r = try LoadTest.run(o)
        #expect(r.passed, "\(r.text)")
        #expect(r.totalDragsSent == r.totalDragsOK + r.totalDragsRefused)
        // Five bots per room: four other members see each drag.
        #expect(r.totalExpectedDeliveries == r.totalDragsOK * 4)
        #expect(r.json.hasPrefix("{\"passed\":true"))
    }

    /// `--play parts`: bots build parts on the table and carry them in, in
    /// two rooms; every part is sound in the mirrors and in each room's
    /// final snapshot, which equals the mirror, and the usual checks pass.
    @Test func partsRunFormsPartsCarriesThemInAndPassesItsChecks() throws {
        var o = options(kind: .jigsaw, rooms: 2)
        o.play = .parts
        o.carrySize = 4
        o.rows = 8
        o.cols = 8
        let r = try LoadTest.run(o)
        #expect(r.passed, "\(r.text)")
        #expect(r.play == "parts" && r.json.contains("\"play\":\"parts\""))
        #expect(r.merges > 0 && r.largestPart >= 2, "\(r.text)")
        #expect(r.partsCarriedIn > 0 && r.piecesCarriedIn >= 2 * r.partsCarriedIn, "\(r.text)")
        #expect(r.snapshotsChecked == 2 && r.partErrors == 0)
        // Each merge and drop reached every bot of its room as an event line.
        #expect(r.eventLines > 0 && r.linesPerSecond > r.deliveriesPerSecond)
        #expect(r.totalDragsSent > 0 && r.totalDragsSent == r.totalDragsOK + r.totalDragsRefused)
        // Ten bots a room: nine other members see each drag, of a piece or a part.
        #expect(r.totalDeliveries == r.totalDragsOK * 9)
        #expect(r.errors == 0 && r.totalErrors == 0 && r.disconnects == 0)
    }

    /// `--play carry`: each bot builds its own part of three along a row of
    /// the picture, then carries it round the table; no part joins another
    /// bot's or anything else, none goes into the board, and a drag of a part
    /// reaches every other member as one line.
    @Test func carryRunBuildsOnePartABotAndDragsIt() throws {
        var o = options(kind: .jigsaw)
        o.play = .carry
        o.carrySize = 3
        o.bots = 6
        // Two runs of three a row (a column between), on rows 0, 2 and 4.
        o.rows = 6
        o.cols = 8
        o.rate = .max
        o.duration = 1.5
        let r = try LoadTest.run(o)
        #expect(r.passed, "\(r.text)")
        #expect(r.play == "carry")
        // Two joins make each part of three; nothing else joins.
        #expect(r.merges == 12 && r.largestPart == 3 && r.partsAtEnd == 6, "\(r.text)")
        #expect(r.partsCarriedIn == 0 && r.solves.isEmpty)
        // Far more drops than the twelve that built the parts: the parts were carried.
        #expect(r.totalDragsSent > 0 && r.totalDragsSent == r.totalDragsOK + r.totalDragsRefused)
        #expect(r.dropsOK > 100, "\(r.text)")
        #expect(r.totalDeliveries == r.totalDragsOK * 5)
        #expect(r.errors == 0 && r.totalErrors == 0 && r.disconnects == 0 && r.heldRefusals == 0)
    }

    /// `--websocket` bots play as TCP bots do (the same checks pass, every
    /// drag reaches every other member) over HTTP Upgrade and masked frames.
    @Test func webSocketBotsPlayAndPassTheirChecks() throws {
        var o = options(kind: .jigsaw)
        o.webSocket = true
        o.rate = .max
        o.duration = 1
        let r = try LoadTest.run(o)
        #expect(r.passed, "\(r.text)")
        #expect(r.transport == "websocket" && r.json.contains("\"transport\":\"websocket\""))
        #expect(r.totalDragsSent > 0 && r.totalDragsSent == r.totalDragsOK + r.totalDragsRefused)
        #expect(r.totalDeliveries == r.totalDragsOK * 19)
        #expect(r.disconnects == 0 && r.errors == 0)
    }
}
