extension RoomState {
    /// Validates a player's action and, if it is allowed, applies it, appending the
    /// resulting events to `events`. A refused action throws and changes nothing.
    /// The same as `plan` followed by `apply(planned:)` on what it appended.
    @discardableResult
    public mutating func perform(_ action: Action, by player: PlayerID, at time: Int64, into events: inout [RoomEvent]) throws(PuzzleError) -> ActionOutcome {
        let start = events.count
        let outcome = try plan(action, by: player, at: time, into: &events)
        for i in start..<events.count { applyUnchecked(events[i]) }
        apply(outcome)
        return outcome
    }

    /// Validates a player's action and appends the events performing it would
    /// produce, without changing the state. A server stores the durable ones
    /// first and applies them (`apply(planned:)`) only once they are stored, so
    /// a move it could not keep is never made. A refused action throws.
    /// Returns what the action does, for the reply.
    @discardableResult
    public func plan(_ action: Action, by player: PlayerID, at time: Int64, into events: inout [RoomEvent]) throws(PuzzleError) -> ActionOutcome {
        var seq = self.seq
        func emit(_ body: EventBody) {
            if body.isSequenced { seq += 1 }
            events.append(RoomEvent(seq: seq, time: time, body: body))
        }
        if case .join(let name, let color) = action {
            guard players[player] == nil else { throw .alreadyJoined(player) }
            let slot = roster.slot(preferring: color, for: player)
            emit(.joined(player, name: name, color: slot == roster.lowestFreeColorSlot(besides: player) ? nil : slot))
            return .joined
        }
        guard let info = players[player] else { throw .unknownPlayer(player) }
        switch action {
        case .join:
            return .joined
        case .leave:
            for piece in info.holding {
                emit(.returned(piece: piece, by: player, reason: .left))
            }
            emit(.left(player))
            return .left
        case .grab(let piece):
            try checkPiece(piece)
            // A part is held as one: any of its pieces held holds them all.
            if let holder = holder(of: piece) { throw .heldBy(piece: piece, holder: holder) }
            guard !isSolved else { throw .alreadySolved }
            guard info.holding.count < settings.maxHeld else { throw .holdLimit(info.holding.count) }
            emit(.grabbed(piece: piece, by: player))
            return .grabbed(piece: piece)
        case .drag(let piece, let point):
            let lock = try heldLock(piece, by: player)
            // The whole part stays on the table, not only the piece held.
            guard geometry.contains(point), board.fitsOnTable(piece, at: point, rotation: lock.rotation) else { throw .offTable(point) }
            let target = dropTarget(piece: piece, at: point, rotation: lock.rotation, holder: player)
            emit(.dragged(piece: piece, by: player, to: point, target: target))
            return .dragged(piece: piece, to: point, target: target)
        case .rotate(let piece):
            let lock = try heldLock(piece, by: player)
            guard spec.rotation else { throw .rotationDisabled }
            let rotation = (lock.rotation + 1) & 3
            // A part turns about the piece held; all of it must stay on the table.
            guard board.fitsOnTable(piece, at: lock.point, rotation: rotation) else { throw .offTable(lock.point) }
            let target = dropTarget(piece: piece, at: lock.point, rotation: rotation, holder: player)
            emit(.rotated(piece: piece, by: player, rotation: rotation, target: target))
            return .rotated(piece: piece, rotation: rotation, target: target)
        case .drop(let piece):
            let lock = try heldLock(piece, by: player)
            // Recomputed rather than trusted from the last drag: the board may have changed since.
            let target = dropTarget(piece: piece, at: lock.point, rotation: lock.rotation, holder: player)
            // The count of correct pieces once the drop is applied, to tell whether it solves the puzzle.
            var correct = board.correctCount
            let outcome: DropOutcome
            // Whether the drop counts as a move (`changesPlace`, applied to the event too).
            let moved: Bool
            switch spec.kind {
            case .jigsaw:
                // Loose on the table, it joins the neighbours lying where
                // they belong beside it (`PieceBoard.joins`), snapping to them.
                var point = lock.point
                var joins: [(Int, Int)] = []
                if target == nil, let found = board.joins(piece, at: point, rotation: lock.rotation, isFree: { holder(of: $0) == nil }) {
                    point = Point(x: point.x + found.shift.x, y: point.y + found.shift.y)
                    joins = found.pairs
                }
                let at: PieceLocation = target.map { .board($0) } ?? .table(point)
                outcome = target.map { .placed($0) } ?? .onTable(point)
                emit(.placed(piece: piece, by: player, at: at, rotation: lock.rotation))
                for (a, b) in joins { emit(.merged(piece: a, other: b, by: player)) }
                moved = board.changesPlace(piece, to: at, rotation: lock.rotation)
                correct += board.correctChange(ifMoving: piece, to: at, rotation: lock.rotation)
            case .swap:
                if let target {
                    let other = Int(board.occupant[geometry.index(of: target)])
                    emit(.swapped(piece: piece, other: other, by: player))
                    outcome = .swapped(target)
                    moved = true
                    let a = board.pieces[piece].location, b = board.pieces[other].location
                    correct += (board.isCorrect(piece, at: b, rotation: 0) ? 1 : 0) + (board.isCorrect(other, at: a, rotation: 0) ? 1 : 0)
                        - (board.isCorrect(piece) ? 1 : 0) - (board.isCorrect(other) ? 1 : 0)
                } else {
                    emit(.returned(piece: piece, by: player, reason: .noTarget))
                    outcome = .returned
                    moved = false
                }
            }
            let solves = !isSolved && correct == board.pieceCount
            if solves {
                emit(.solved(puzzle: puzzleIndex, elapsedMillis: elapsed(at: time)))
            }
            return .dropped(piece: piece, outcome, solved: solves, moved: moved)
        case .release(let piece):
            _ = try heldLock(piece, by: player)
            emit(.returned(piece: piece, by: player, reason: .released))
            return .released(piece: piece)
        case .keep(let piece):
            _ = try heldLock(piece, by: player)
            // No event: a renewed lease changes nothing anyone else sees.
            return .kept(piece: piece, until: time.clampedAdding(settings.leaseMillis))
        case .hint:
            guard !info.hintUsed else { throw .hintUsed }
            let until = time.clampedAdding(settings.hintMillis)
            emit(.hint(by: player, untilMillis: until))
            return .hint(millis: settings.hintMillis, until: until)
        case .next:
            guard isSolved else { throw .notSolved }
            var next = spec.next()
            next.picture = settings.picture(forPuzzle: puzzleIndex + 1)
            emit(.nextPuzzle(puzzle: puzzleIndex + 1, spec: next))
            return .next(puzzle: puzzleIndex + 1, spec: next)
        }
    }

    /// Applies the events `plan` produced, in order.
    public mutating func apply(planned events: some Sequence<RoomEvent>) {
        for event in events { applyUnchecked(event) }
    }

    /// Applies what an accepted action changes beyond its events: KEEP's
    /// renewed lease, which is no event (nobody else needs to know, and no
    /// hold survives a restart). Every other outcome changes nothing here.
    /// Call it after `apply(planned:)` with `plan`'s outcome.
    public mutating func apply(_ outcome: ActionOutcome) {
        guard case .kept(let piece, let until) = outcome else { return }
        locks[piece]?.expiresAt = until
    }

    /// Convenience form of `perform` that returns the events.
    @discardableResult
    public mutating func perform(_ action: Action, by player: PlayerID, at time: Int64) throws(PuzzleError) -> [RoomEvent] {
        var events: [RoomEvent] = []
        try perform(action, by: player, at: time, into: &events)
        return events
    }

    /// Ends every hold whose lease ran out at or before `time`: each piece goes
    /// back where it was grabbed. Costs O(holds), not O(pieces).
    public mutating func expireLeases(at time: Int64, into events: inout [RoomEvent]) {
        guard !locks.isEmpty else { return }
        // Called every loop turn: allocate nothing unless something lapsed.
        var lapsed: [(piece: Int, holder: PlayerID)] = []
        for (piece, lock) in locks where lock.expiresAt <= time { lapsed.append((piece, lock.holder)) }
        guard !lapsed.isEmpty else { return }
        lapsed.sort { $0.piece < $1.piece }
        for (piece, holder) in lapsed {
            let event = RoomEvent(seq: seq + 1, time: time, body: .returned(piece: piece, by: holder, reason: .expired))
            applyUnchecked(event)
            events.append(event)
        }
    }

    /// Plans forgetting the given players that are absent (the others are
    /// skipped: a player present, or back since, is not forgotten), in id
    /// order, without changing the state; `apply(planned:)` applies them once
    /// a server has stored them. Their moves stay in the room's totals.
    public func planForgetting(_ ids: some Sequence<PlayerID>, at time: Int64, into events: inout [RoomEvent]) {
        var seq = self.seq
        for id in Set(ids).sorted() where absent[id] != nil {
            seq += 1
            events.append(RoomEvent(seq: seq, time: time, body: .forgotten(id)))
        }
    }

    private func checkPiece(_ piece: Int) throws(PuzzleError) {
        guard piece >= 0 && piece < pieces.count else { throw .unknownPiece(piece) }
    }

    private func heldLock(_ piece: Int, by player: PlayerID) throws(PuzzleError) -> PieceLock {
        try checkPiece(piece)
        guard let lock = locks[piece], lock.holder == player else { throw .notHolder(piece: piece) }
        return lock
    }
}
