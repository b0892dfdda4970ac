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

    /// Drops every hold and every player: what a room looks like after a restart.
    public mutating func releaseEverything() {
        locks.removeAll()
        players.removeAll()
    }

    mutating func applyUnchecked(_ event: RoomEvent) {
        if event.body.isSequenced { seq = event.seq }
        let time = event.time
        switch event.body {
        case .joined(let player, let name):
            players[player] = PlayerInfo(name: name)
        case .left(let player):
            if let info = players.removeValue(forKey: player) {
                for piece in info.holding { locks[piece] = nil }
            }
        case .grabbed(let piece, let player):
            let rotation = pieces[piece].rotation
            var lock = PieceLock(holder: player, expiresAt: time.clampedAdding(settings.leaseMillis),
                                 point: position(of: piece), rotation: rotation, target: nil)
            lock.target = dropTarget(piece: piece, at: lock.point, rotation: rotation, holder: player)
            locks[piece] = lock
            players[player]?.holding.append(piece)
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
            move(piece, to: location, rotation: rotation)
            players[player]?.moves += 1
        case .swapped(let piece, let other, let player):
            endHold(piece)
            let a = pieces[piece].location
            let b = pieces[other].location
            move(other, to: .table(Point(x: 0, y: 0)), rotation: 0)
            move(piece, to: b, rotation: 0)
            move(other, to: a, rotation: 0)
            players[player]?.moves += 1
        case .returned(let piece, _, _):
            endHold(piece)
        case .solved:
            solvedAt = time
            locks.removeAll()
            for id in players.keys { players[id]?.holding.removeAll() }
        case .nextPuzzle(let index, let next):
            let layout = PuzzleLayout(spec: next, seed: settings.seed, index: index)
            puzzleIndex = index
            spec = next
            geometry = layout.geometry
            cut = layout.cut
            pieces = layout.pieces
            occupant = layout.occupant
            locks.removeAll()
            startedAt = time
            solvedAt = nil
            correctCount = (0..<pieces.count).reduce(0) { $0 + (isCorrect($1) ? 1 : 0) }
            for id in players.keys {
                players[id]?.holding.removeAll()
                players[id]?.hintUsed = false
                players[id]?.hintUntil = nil
            }
        case .hint(let player, let until):
            players[player]?.hintUsed = true
            players[player]?.hintUntil = until
        }
    }

    private mutating func endHold(_ piece: Int) {
        guard let lock = locks.removeValue(forKey: piece) else { return }
        if let i = players[lock.holder]?.holding.firstIndex(of: piece) {
            players[lock.holder]?.holding.remove(at: i)
        }
    }

    /// Moves a piece's committed place, keeping the cell index and the count of
    /// correct pieces in step.
    private mutating func move(_ piece: Int, to location: PieceLocation, rotation: Int) {
        if isCorrect(piece) { correctCount -= 1 }
        if case .board(let old) = pieces[piece].location {
            let i = geometry.index(of: old)
            if occupant[i] == Int32(piece) { occupant[i] = -1 }
        }
        pieces[piece] = PieceState(location: location, rotation: rotation)
        if case .board(let new) = location { occupant[geometry.index(of: new)] = Int32(piece) }
        if isCorrect(piece) { correctCount += 1 }
    }
}
