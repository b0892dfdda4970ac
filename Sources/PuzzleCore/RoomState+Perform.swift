extension RoomState {
    /// Validates a player's action and, if it is allowed, applies it, appending the
    /// resulting events to `events`. A refused action throws and changes nothing.
    public mutating func perform(_ action: Action, by player: PlayerID, at time: Int64, into events: inout [RoomEvent]) throws(PuzzleError) {
        if case .join(let name) = action {
            guard players[player] == nil else { throw .alreadyJoined(player) }
            commit(.joined(player, name: name), at: time, into: &events)
            return
        }
        guard let info = players[player] else { throw .unknownPlayer(player) }
        switch action {
        case .join:
            return
        case .leave:
            for piece in info.holding {
                commit(.returned(piece: piece, by: player, reason: .left), at: time, into: &events)
            }
            commit(.left(player), at: time, into: &events)
        case .grab(let piece):
            try checkPiece(piece)
            if let lock = locks[piece] { throw .heldBy(piece: piece, holder: lock.holder) }
            guard solvedAt == nil else { throw .alreadySolved }
            guard info.holding.count < settings.maxHeld else { throw .holdLimit(info.holding.count) }
            commit(.grabbed(piece: piece, by: player), at: time, into: &events)
        case .drag(let piece, let point):
            let lock = try heldLock(piece, by: player)
            guard geometry.contains(point) else { throw .offTable(point) }
            let target = dropTarget(piece: piece, at: point, rotation: lock.rotation, holder: player)
            commit(.dragged(piece: piece, by: player, to: point, target: target), at: time, into: &events)
        case .rotate(let piece):
            let lock = try heldLock(piece, by: player)
            guard spec.rotation else { throw .rotationDisabled }
            let rotation = (lock.rotation + 1) & 3
            let target = dropTarget(piece: piece, at: lock.point, rotation: rotation, holder: player)
            commit(.rotated(piece: piece, by: player, rotation: rotation, target: target), at: time, into: &events)
        case .drop(let piece):
            let lock = try heldLock(piece, by: player)
            // Recomputed rather than trusted from the last drag: the board may have changed since.
            let target = dropTarget(piece: piece, at: lock.point, rotation: lock.rotation, holder: player)
            switch spec.kind {
            case .jigsaw:
                let at: PieceLocation = target.map { .board($0) } ?? .table(lock.point)
                commit(.placed(piece: piece, by: player, at: at, rotation: lock.rotation), at: time, into: &events)
            case .swap:
                if let target {
                    let other = Int(occupant[geometry.index(of: target)])
                    commit(.swapped(piece: piece, other: other, by: player), at: time, into: &events)
                } else {
                    commit(.returned(piece: piece, by: player, reason: .noTarget), at: time, into: &events)
                }
            }
            if solvedAt == nil && correctCount == pieces.count {
                commit(.solved(puzzle: puzzleIndex, elapsedMillis: time - startedAt), at: time, into: &events)
            }
        case .release(let piece):
            _ = try heldLock(piece, by: player)
            commit(.returned(piece: piece, by: player, reason: .released), at: time, into: &events)
        case .hint:
            guard !info.hintUsed else { throw .hintUsed }
            commit(.hint(by: player, untilMillis: time + settings.hintMillis), at: time, into: &events)
        case .next:
            guard solvedAt != nil else { throw .notSolved }
            commit(.nextPuzzle(puzzle: puzzleIndex + 1, spec: spec.next()), at: time, into: &events)
        }
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
            commit(.returned(piece: piece, by: holder, reason: .expired), at: time, into: &events)
        }
    }

    /// The earliest time a hold will lapse, for a server to schedule its next check.
    public var nextExpiry: Int64? { locks.values.lazy.map(\.expiresAt).min() }

    private func checkPiece(_ piece: Int) throws(PuzzleError) {
        guard piece >= 0 && piece < pieces.count else { throw .unknownPiece(piece) }
    }

    private func heldLock(_ piece: Int, by player: PlayerID) throws(PuzzleError) -> PieceLock {
        try checkPiece(piece)
        guard let lock = locks[piece], lock.holder == player else { throw .notHolder(piece: piece) }
        return lock
    }

    private mutating func commit(_ body: EventBody, at time: Int64, into events: inout [RoomEvent]) {
        let event = RoomEvent(seq: body.isSequenced ? seq + 1 : seq, time: time, body: body)
        applyUnchecked(event)
        events.append(event)
    }
}
