extension RoomState {
    /// Applies an event produced by this room (or a copy of it) to this state.
    /// Replaying a room's events in order from its starting state reproduces it.
    /// Throws when the event's sequence number does not follow this state's.
    /// Transient events (drags) may arrive late, after later sequenced events
    /// (a slow reader's drags are coalesced): they are accepted when not from the
    /// future, and move a hold only if the same player still has it.
    public mutating func apply(_ event: RoomEvent) throws(PuzzleError) {
        if event.body.isSequenced {
            guard event.seq == seq + 1 else { throw .sequenceMismatch(expected: seq + 1, got: event.seq) }
        } else {
            guard event.seq <= seq else { throw .sequenceMismatch(expected: seq, got: event.seq) }
        }
        applyUnchecked(event)
    }

    /// Applies a durable event while restoring from a journal, where holds and
    /// players were not recorded: the piece moves whether or not it is held.
    public mutating func restore(_ event: RoomEvent) throws(PuzzleError) {
        guard event.seq > seq else { return }
        seq = event.seq - 1
        applyUnchecked(event)
    }

    /// Ends every hold and every player's presence at room clock `time`: what
    /// a room looks like after a restart. The players' counters are kept (they
    /// are away, not forgotten) and the puzzle clock pauses at `time`.
    public mutating func endSessions(at time: Int64) {
        locks.removeAll()
        grips.removeAll()
        roster.leaveAll()
        clock.pause(at: time)
    }

    /// Drops every hold (holds never survive a restart); players stay as they are.
    public mutating func releaseHolds() {
        locks.removeAll()
        grips.removeAll()
        roster.dropHoldings()
    }

    mutating func applyUnchecked(_ event: RoomEvent) {
        if event.body.isSequenced { seq = event.seq }
        let time = event.time
        switch event.body {
        case .joined(let player, let name, let color):
            // The clock starts when the first player arrives, and runs on while anyone is there.
            if roster.players.isEmpty { clock.start(at: time) }
            roster.join(player, name: name, color: color)
        case .left(let player):
            if let info = roster.leave(player) {
                for piece in info.holding {
                    locks[piece] = nil
                    if let part = board.parts.part(of: piece) { grips[part] = nil }
                }
                if roster.players.isEmpty { clock.pause(at: time) }
            }
        case .grabbed(let piece, let player):
            let rotation = board.pieces[piece].rotation
            if let part = board.parts.part(of: piece) { grips[part] = piece }
            var lock = PieceLock(holder: player, expiresAt: time.clampedAdding(settings.leaseMillis),
                                 point: position(of: piece), rotation: rotation, target: nil)
            lock.target = dropTarget(piece: piece, at: lock.point, rotation: rotation, holder: player)
            locks[piece] = lock
            roster.addHolding(piece, to: player)
        case .dragged(let piece, let player, let point, let target):
            guard locks[piece]?.holder == player else { break }
            locks[piece]?.point = point
            locks[piece]?.target = target
            locks[piece]?.expiresAt = time.clampedAdding(settings.leaseMillis)
        case .rotated(let piece, _, let rotation, let target):
            locks[piece]?.rotation = rotation
            locks[piece]?.target = target
            locks[piece]?.expiresAt = time.clampedAdding(settings.leaseMillis)
        case .placed(let piece, let player, let location, let rotation):
            endHold(piece)
            // A drop that leaves the piece as it was is no move: counting it
            // would let anyone inflate their moves with GRAB, DROP.
            let moved = board.changesPlace(piece, to: location, rotation: rotation)
            board.movePart(piece, to: location, rotation: rotation)
            if moved { roster.countMove(by: player) }
        case .merged(let piece, let other, _):
            // Parts join only loose and unheld (the plan's rule); a journal
            // replayed on its own is trusted to say so.
            board.join(piece, other)
        case .swapped(let piece, let other, let player):
            endHold(piece)
            board.swap(piece, with: other)
            roster.countMove(by: player)
        case .returned(let piece, _, _):
            endHold(piece)
        case .solved(_, let elapsed):
            // The event says the solve time: a mirror shows the server's, not its own.
            clock.solve(elapsed: elapsed)
            locks.removeAll()
            grips.removeAll()
            roster.dropHoldings()
        case .nextPuzzle(let index, let next):
            puzzleIndex = index
            board = PieceBoard(spec: next, seed: settings.seed, index: index)
            locks.removeAll()
            grips.removeAll()
            clock.restart(at: time, running: !roster.players.isEmpty)
            roster.startPuzzle()
        case .hint(let player, let until):
            roster.useHint(player, until: until)
        case .forgotten(let player):
            // Only an absent player is forgotten; its counts stay in the room's.
            roster.forget(player)
        }
    }

    /// Ends the hold on `piece`, if any, in the room and in its holder's list.
    private mutating func endHold(_ piece: Int) {
        guard let lock = locks.removeValue(forKey: piece) else { return }
        if let part = board.parts.part(of: piece) { grips[part] = nil }
        roster.removeHolding(piece, from: lock.holder)
    }
}
