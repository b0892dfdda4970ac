import PuzzleCore
import PuzzleProtocol

/// Matches each `OK`, `ERR` or `PONG` line to the bot's oldest request (the
/// server answers in order), counts it, times answered drags from their
/// paced slot (the reply latency), and hands on what the answer means: to
/// the play policy (grabs, drags, drops), the room's reference stream (a JOIN
/// snapshot) or the end checks (DIGEST, the final SYNC).
final class ReplyHandler {
    let rooms: [BenchRoom]
    let policy: PlayPolicy
    let endChecks: EndChecks
    let tally: LoadTally
    let clock: RunClock
    /// Bots whose JOIN was answered and whose snapshot was taken in.
    @exclusivity(unchecked) private(set) var joined = 0

    init(rooms: [BenchRoom], policy: PlayPolicy, endChecks: EndChecks, tally: LoadTally) {
        self.rooms = rooms
        self.policy = policy
        self.endChecks = endChecks
        self.tally = tally
        clock = tally.clock
    }

    /// A reply line received by `bot`.
    func received(_ bot: BenchBot, _ line: LineScanner) {
        guard let request = bot.answered() else {
            tally.failures.unexpectedReplies += 1
            tally.note("bot\(bot.index): reply to nothing: '\(line.string.prefix(80))'")
            return
        }
        // Told and read as the protocol's readers do (`ServerLine`, `ReplyCodec`);
        // an `OK` only as far as its request needs.
        var s = line
        let kind = ServerLine.kind(of: line.bytes)
        _ = s.word()
        if kind == .ok {
            ok(bot, request, s)
        } else if kind == .error {
            refused(bot, request, code: ReplyCodec.error(&s)?.code ?? ErrorCode(rawValue: ""), line: line)
        } else {
            tally.failures.unexpectedReplies += 1
            tally.note("bot\(bot.index): '\(line.string.prefix(80))' answered \(request.kind)")
        }
    }

    private func ok(_ bot: BenchBot, _ request: PendingRequest, _ rest: LineScanner) {
        let now = clock.now
        switch request.kind {
        case .drag:
            let others = rooms[bot.room].members.count - 1
            tally.total.dragsOK += 1
            tally.total.expectedDeliveries += others
            if clock.inWindow(request.intended) {
                tally.window.dragsOK += 1
                tally.window.expectedDeliveries += others
                tally.replyLatency.record(now > request.intended ? (now - request.intended) / 1000 : 0)
            }
            policy.dragAnswered(bot)
        case .grab:
            tally.total.grabsOK += 1
            if clock.inWindow(now) { tally.window.grabsOK += 1 }
            policy.grabbed(bot, piece: Int(request.piece))
        case .drop:
            tally.total.dropsOK += 1
            if clock.inWindow(now) { tally.window.dropsOK += 1 }
            // Drops are a tenth of the replies: decoded the general way.
            if !policy.stopping, case .dropped(_, _, solved: true)? = ReplyCodec.decode(rest.bytes) {
                policy.askForNextPuzzle(bot)
            }
        case .next:
            tally.total.nextOK += 1
        case .hello, .release:
            break
        case .join:
            joinedRoom(bot, rest)
        case .digest:
            endChecks.checkDigest(bot, rest, room: rooms[bot.room].stream)
        case .sync:
            bot.snapshotChecked = true
            endChecks.checkSnapshot(bot: bot.index, rest, lines: bot.stateLines, room: rooms[bot.room].stream, now: clock.clockMillis)
            bot.stateLines = []
        }
    }

    private func refused(_ bot: BenchBot, _ request: PendingRequest, code: ErrorCode, line: LineScanner) {
        if code == .rateLimited {
            tally.total.rateLimited += 1
            if clock.inWindow(clock.now) { tally.window.rateLimited += 1 }
        }
        switch request.kind {
        case .drag:
            tally.total.dragsRefused += 1
            if clock.inWindow(request.intended) { tally.window.dragsRefused += 1 }
            if code == .notHolder {
                tally.total.lostHolds += 1
            } else if code != .rateLimited {
                tally.unexpected(bot: bot.index, line)
            }
            policy.dragAnswered(bot)
        case .grab:
            switch code {
            case .held:
                tally.total.grabsHeld += 1
                if clock.inWindow(clock.now) { tally.window.grabsHeld += 1 }
            case .solved:
                tally.total.grabsSolved += 1
            default:
                tally.unexpected(bot: bot.index, line)
            }
            policy.grabRefused(bot, piece: Int(request.piece))
        case .drop:
            if code == .notHolder { tally.total.lostHolds += 1 } else { tally.unexpected(bot: bot.index, line) }
        case .next:
            // Another bot's NEXT got there first.
            if code != .notSolved { tally.unexpected(bot: bot.index, line) }
        case .release:
            if code != .notHolder { tally.unexpected(bot: bot.index, line) }
        case .hello, .join, .digest, .sync:
            tally.mirrorError("bot\(bot.index): \(request.kind) refused: \(line.string)")
            bot.phase = .finished
        }
    }

    /// `OK joined <room> id=<id> seq=<n>`: take in the snapshot lines that came before it.
    private func joinedRoom(_ bot: BenchBot, _ rest: LineScanner) {
        let text = String(decoding: bot.stateLines, as: UTF8.self)
        bot.stateLines = []
        guard case .joined(_, let player, let seq, _, _)? = ReplyCodec.decode(rest.bytes) else {
            tally.mirrorError("bot\(bot.index): bad JOIN reply '\(rest.string)'")
            return
        }
        do {
            let snapshot = try SnapshotCodec.decode(text.split(separator: "\n"), now: clock.clockMillis)
            guard snapshot.state.seq == seq else {
                tally.mirrorError("bot\(bot.index): snapshot seq \(snapshot.state.seq) but JOIN says \(seq)")
                return
            }
            bot.lastSeq = snapshot.state.seq
            rooms[bot.room].stream.snapshotJoined(bot: bot.index, state: snapshot.state, observer: policy)
        } catch {
            tally.mirrorError("bot\(bot.index): bad snapshot: \(error)")
            return
        }
        bot.player = player.rawValue
        bot.phase = .idle
        joined += 1
    }
}
