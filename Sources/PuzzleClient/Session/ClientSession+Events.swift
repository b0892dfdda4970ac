import PuzzleCore
import PuzzleProtocol

/// Events: mirrored into the room state, and told as the lines `EventText` words.
extension ClientSession {
    mutating func handleEvent(_ line: Substring, now: Int64) {
        guard let event = EventCodec.decode(line, now: now) else {
            emit(.info, "unreadable event: \(line.prefix(120))")
            return
        }
        switch event {
        case .say(_, let player, let text):
            emit(.chat, "<\(displayName(player))> \(text)", about: .chat(from: player, words: text))
        case .watching(_, let player, let name):
            roster.startedWatching(player, name: name)
            if player != myID { emit(.info, "\(name) is watching") }
        case .unwatching(_, let player):
            if let name = roster.stoppedWatching(player), player != myID { emit(.info, "\(name) stopped watching") }
        case .room(let e):
            if case .joined(let id, let name, _) = e.body { roster.met(id, name: name) }
            let kind = EventText.kind(of: e.body)
            let told = tellsDrags || kind != .drag
            guard let seq = state?.seq, !syncing else {
                if told { emit(kind, describe(e, before: state), about: .event(e.body, completes: false)) }
                return
            }
            if e.body.isSequenced && e.seq <= seq { return }  // already in the snapshot
            // Said with the room as it was before the event (a swap names the cells the pieces left).
            let text = told ? describe(e, before: state) : ""
            // A solve ends every hold (PROTOCOL: after `solved` all holds are gone):
            // a player still holding a piece is told, not left wondering why it went.
            let heldBeforeSolve: [Int] = if case .solved = e.body, let me = myID { state?.players[me]?.holding ?? [] } else { [] }
            let pictureBefore = state?.spec.picture
            // The mirror changes in place: a copy of it changed and stored back
            // would copy its arrays (10,000 pieces) on every drag.
            // (`apply` changes nothing when it throws.)
            guard Self.isApplicable(e.body, to: mirror!.state), (try? mirror!.state.apply(e)) != nil else {
                // Not applicable, or a gap: something was missed. Say what arrived, then reload.
                if told { emit(kind, text, about: .event(e.body, completes: false)) }
                requestSync(now: now)
                return
            }
            if told {
                let completed = EventText.completedLines(by: e.body, in: mirror!.state)
                emit(kind, EventText.line(text, completing: completed), about: .event(e.body, completes: !completed.isEmpty))
            }
            if let me = myID { hand.observe(e.body, me: me) }
            switch e.body {
            case .grabbed(let piece, _), .placed(let piece, _, .table, _):
                stack.raise(piece, in: mirror!.state)
            case .solved(let puzzle, let ms):
                solvedBanner = PlayerText.solved(puzzle: puzzle, millis: ms)
                // The banner's numbers (moves, who placed what) are the server's: asked for.
                requestSolvedStats(puzzle, now: now)
                for piece in heldBeforeSolve { emit(.info, "your piece \(piece) went back: the puzzle is solved") }
            case .nextPuzzle(_, let spec):
                stack.reset()
                solvedBanner = nil; replays.tableChanged(solvedPuzzle: nil, sameRoom: true); hand.restartTab()
                // Another picture (a room cycles them): its pixels come with a snapshot.
                if spec.picture != pictureBefore { requestSync(now: now) }
            default: break
            }
        }
    }

    /// In a room followed by snapshots (`EventFlood`): whether this event
    /// line is skipped unread. Chat and watchers are always followed; drags
    /// are skipped too, the player's own among them (its replies move its
    /// piece: `dragAccepted`; its event would find the mirror behind the
    /// room and ask for a snapshot each time); every sequenced event counts
    /// towards the flood.
    mutating func skipsInFlood(_ line: inout Substring, now: Int64) -> Bool {
        guard let head = line.withUTF8({ EventHead.read(UnsafeRawBufferPointer($0)) }) else { return false }
        switch head.kind {
        case .say, .watching, .unwatching:
            return false
        case .dragged:
            guard eventFlood!.isFlooded else { return false }
            skippedInFlood += 1
            return true
        default:
            if eventFlood!.counted(now: now) {
                emit(.info, "this room makes over \(eventFlood!.limit) moves a second: the table shows it every \(eventFlood!.snapshotEvery) ms, and after each move of yours")
                // Events no one reads need not be sent: chat still comes.
                eventFlood!.eventsOff = true
                send(.events(false), fromUser: false, now: now)
            }
            guard eventFlood!.isFlooded, phase == .joined else { return false }
            eventFlood!.isBehind = true
            skippedInFlood += 1
            catchUpWithFlood(now: now)
            return true
        }
    }

    /// Time passed in a room followed by snapshots: ends a flood that calmed
    /// down, and asks for the room when the table is behind it and a
    /// snapshot is due (`force`: now, after a move of the player's own).
    public mutating func catchUpWithFlood(now: Int64, force: Bool = false) {
        guard eventFlood != nil else { return }
        if eventFlood!.advance(to: now) { emit(.info, "the room has calmed down: the table shows every move again") }
        guard eventFlood!.isBehind, force || eventFlood!.snapshotDue(now: now), !syncing, phase == .joined else { return }
        requestSync(now: now)
        eventFlood!.asked(now: now)
    }

    /// A snapshot was installed: a flooded room's (whose pace its sequence
    /// number tells, and whose solves since the last are told: their
    /// events were not read), or another room's, where events come as they did.
    mutating func followFlood(snapshot seq: UInt64, sameRoom: Bool, puzzleBefore: Int?, puzzle: Int, now: Int64) {
        guard eventFlood != nil else { return }
        guard sameRoom else {
            if eventFlood!.eventsOff { send(.events(true), fromUser: false, now: now) }
            eventFlood!.restart()
            return
        }
        if eventFlood!.isFlooded, let before = puzzleBefore, puzzle > before {
            let solved = puzzle - before == 1 ? "puzzle \(before) was solved" : "puzzles \(before)–\(puzzle - 1) were solved"
            emit(.info, "meanwhile \(solved): now puzzle \(puzzle)")
        }
        if eventFlood!.snapshot(seq: seq, now: now) {
            send(.events(true), fromUser: false, now: now)
            emit(.info, "the room has calmed down: the table shows every move again")
        }
    }

    mutating func requestSync(now: Int64) {
        guard !syncing, phase == .joined else { return }
        syncing = true
        send(.sync, fromUser: false, now: now)
    }

    /// Whether applying `body` is safe: every piece and cell it names exists.
    /// (The core trusts its events; these come from the network.)
    static func isApplicable(_ body: EventBody, to st: RoomState) -> Bool {
        func piece(_ p: Int) -> Bool { p >= 0 && p < st.pieceCount }
        func cell(_ c: Cell?) -> Bool { c.map(st.geometry.isOnBoard) ?? true }
        switch body {
        case .joined, .left, .solved, .nextPuzzle, .hint, .forgotten: return true
        case .grabbed(let p, _), .returned(let p, _, _): return piece(p)
        case .dragged(let p, _, _, let t): return piece(p) && cell(t)
        case .rotated(let p, _, let r, let t): return piece(p) && (0...3).contains(r) && cell(t)
        case .placed(let p, _, let at, let r): return st.canPlace(p, at: at, rotation: r)
        case .merged(let p, let o, _): return st.canMerge(p, o)
        case .swapped(let p, let o, _): return piece(p) && piece(o) && p != o
        }
    }

    /// The line for `e`, with this session's names; `st`: the room before it.
    func describe(_ e: RoomEvent, before st: RoomState?) -> String {
        // The roster alone in the closure: `displayName` (a method) would copy the whole session.
        EventText.line(e.body, time: e.time, before: st, me: myID, names: { [roster] in roster.displayName($0) })
    }
}
