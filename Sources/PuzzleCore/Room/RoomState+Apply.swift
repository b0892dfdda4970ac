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
        for (id, info) in players { leave(id, info, at: time) }
        players.removeAll()
        pauseClock(at: time)
    }

    /// Drops every hold (holds never survive a restart); players stay as they are.
    public mutating func releaseHolds() {
        locks.removeAll()
        for id in players.keys { players[id]?.holding.removeAll() }
    }

    private mutating func leave(_ id: PlayerID, _ info: PlayerInfo, at time: Int64) {
        var kept = info
        kept.holding = []
        absent[id] = kept
    }

    /// A running clock is kept as the moment it would have started to reach
    /// its play time (`clockBase` 0), so that equal clocks are equal values.
    private mutating func startClock(at time: Int64) {
        clockRunningSince = time.clampedSubtracting(clockBase)
        clockBase = 0
    }

    private mutating func pauseClock(at time: Int64) {
        clockBase = elapsed(at: time)
        clockRunningSince = nil
    }

    mutating func applyUnchecked(_ event: RoomEvent) {
        if event.body.isSequenced { seq = event.seq }
        let time = event.time
        switch event.body {
        case .joined(let player, let name):
            // Someone coming back gets their counters back (moves, hint used).
            let present = players[player] != nil
            var info = players[player] ?? absent.removeValue(forKey: player) ?? PlayerInfo(name: name)
            info.name = name
            info.holding = []
            // A colour no one else present has, kept while the player stays.
            if !present { info.colorSlot = lowestFreeColorSlot(besides: player) }
            // The clock starts when the first player arrives, and runs on while anyone is there.
            if players.isEmpty && !isSolved && clockRunningSince == nil { startClock(at: time) }
            players[player] = info
        case .left(let player):
            if let info = players.removeValue(forKey: player) {
                for piece in info.holding { locks[piece] = nil }
                leave(player, info, at: time)
                if players.isEmpty { pauseClock(at: time) }
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
            // A drop that leaves the piece as it was is no move: counting it
            // would let anyone inflate their moves with GRAB, DROP.
            let moved = changesPlace(piece, to: location, rotation: rotation)
            move(piece, to: location, rotation: rotation)
            if moved { countMove(by: player) }
        case .swapped(let piece, let other, let player):
            endHold(piece)
            let a = pieces[piece].location
            let b = pieces[other].location
            move(other, to: .table(Point(x: 0, y: 0)), rotation: 0)
            move(piece, to: b, rotation: 0)
            move(other, to: a, rotation: 0)
            countMove(by: player)
        case .returned(let piece, _, _):
            endHold(piece)
        case .solved(_, let elapsed):
            // The event says the solve time: a mirror shows the server's, not its own.
            solveMillis = elapsed
            clockBase = elapsed
            clockRunningSince = nil
            locks.removeAll()
            for id in players.keys { players[id]?.holding.removeAll() }
        case .nextPuzzle(let index, let next):
            let layout = PuzzleLayout(spec: next, seed: settings.seed, index: index)
            puzzleIndex = index
            spec = next
            geometry = layout.geometry
            cut = layout.cut
            pieces = layout.pieces
            startPieces = layout.pieces
            occupant = layout.occupant
            locks.removeAll()
            solveMillis = nil
            clockBase = 0
            clockRunningSince = players.isEmpty ? nil : time
            correctCount = (0..<pieces.count).reduce(0) { $0 + (isCorrect($1) ? 1 : 0) }
            // Moves and hints are per puzzle; totals carry on across the sequence.
            for id in players.keys {
                players[id]?.holding.removeAll()
                players[id]?.moves = 0
                players[id]?.hintUsed = false
                players[id]?.hintUntil = nil
            }
            for id in absent.keys {
                absent[id]?.moves = 0
                absent[id]?.hintUsed = false
                absent[id]?.hintUntil = nil
            }
            formerMoves = 0
        case .hint(let player, let until):
            players[player]?.hintUsed = true
            players[player]?.hintUntil = until
        case .forgotten(let player):
            // Only an absent player is forgotten; its counts stay in the room's.
            if let info = absent.removeValue(forKey: player) {
                formerMoves += info.moves
                formerTotalMoves += info.totalMoves
            }
        }
    }

    /// Whether putting `piece` at `location` and `rotation` changes its
    /// committed place: the rule for what counts as a move (a drop that
    /// changed a piece's place or turn; a swap always does).
    public func changesPlace(_ piece: Int, to location: PieceLocation, rotation: Int) -> Bool {
        pieces[piece] != PieceState(location: location, rotation: rotation)
    }

    private mutating func countMove(by player: PlayerID) {
        players[player]?.moves += 1
        players[player]?.totalMoves += 1
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
