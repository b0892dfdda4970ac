import PuzzleCore
import PuzzleProtocol

/// What a session is sent of a room besides its live events: snapshots
/// (JOIN, WATCH, SYNC), catch-ups (REJOIN, `SYNC <seq> <run>`), the picture
/// (PICTURE), the start layout (LAYOUT), the solved puzzles (HISTORY) and
/// their replays (REPLAY). The bytes of a room count against the loop
/// turn's budget (`SessionEffect.chargeRoom`).
///
/// Not thread-safe: owned by the server's event loop.
final class RoomSender {
    private let store: RoomStore
    private let logger: Logger
    private let out: SessionOutbox
    /// Moves a REPLAY page carries at most (`replay_page_moves`).
    private let replayPageMoves: Int

    init(store: RoomStore, replayPageMoves: Int, logger: Logger, out: SessionOutbox) {
        self.store = store
        self.replayPageMoves = max(1, replayPageMoves)
        self.logger = logger
        self.out = out
    }

    /// The room as it is now: version 2 gets the compact form (pieces home
    /// or at their start as ranges, the picture by its hash, fetched with
    /// PICTURE when missing) and who watches.
    func sendSnapshot(_ room: HostedRoom, to session: PlayerSession, now: Int64) {
        var bytes: [UInt8] = []
        let compact = session.speaksVersionTwo
        SnapshotCodec.encode(RoomSnapshot(name: room.name, state: room.state, picture: room.picture,
                                          pictureHash: compact ? room.pictureHash : nil), now: now,
                             extended: compact, layout: compact, compact: compact, layoutBytes: compact ? room.layoutLines : nil,
                             into: &bytes)
        // Charged by its bytes, or by its pieces when more: a big room's
        // compact snapshot is few bytes but costs the loop a pass over every
        // piece to write (and SYNC's digest another).
        out.add(.chargeRoom(max(bytes.count, room.state.pieceCount * LoopTurn.roomCostPerPiece)))
        // Who watches is the server's, not the room state's (nor its disk's).
        if compact { room.appendWatchers(to: &bytes) }
        out.send(lines: bytes)
    }

    /// Brings a session that has the room up to `point` up to date: the
    /// events after it, when the room still has them all (returns how
    /// many), else a snapshot (returns nil).
    func catchUp(_ session: PlayerSession, in room: HostedRoom, from point: (seq: UInt64, run: String), now: Int64) -> Int? {
        guard let lines = room.recent.lines(after: point.seq, run: point.run, current: room.state.seq) else {
            sendSnapshot(room, to: session, now: now)
            return nil
        }
        var bytes = Array(lines)
        // Who watches now (their comings and goings are not in the ring),
        // and the clock (events carry no time: applied late, a join or a
        // leave would start or stop the client's clock at the wrong moment).
        room.appendWatchers(to: &bytes)
        StateRecordCodec.encode(.clock(elapsedMillis: room.state.elapsed(at: now), running: room.state.clockIsRunning), into: &bytes)
        out.send(lines: bytes)
        return Int(room.state.seq - point.seq)
    }

    /// SYNC: a snapshot, then `OK synced`.
    func sync(_ session: PlayerSession, in room: HostedRoom, now: Int64) {
        sendSnapshot(room, to: session, now: now)
        out.send(.synced(seq: room.state.seq, digest: room.state.digest.description, run: session.run(of: room)))
    }

    /// `SYNC <seq> <run>`: what was missed since, then `OK synced` saying how much.
    func sync(_ session: PlayerSession, in room: HostedRoom, from point: (seq: UInt64, run: String), now: Int64) {
        let missed = catchUp(session, in: room, from: point, now: now)
        out.send(.synced(seq: room.state.seq, digest: room.state.digest.description, run: room.recent.run, missed: missed))
    }

    /// PICTURE: the room's picture as a PNG or JPEG file in lines. Encoded
    /// off the loop the first time (a 100x100's PNG took 20 ms); the request
    /// is then answered again, from the room's copy.
    func sendPicture(of room: HostedRoom, as format: PictureFormat, request: Request) {
        guard let picture = room.picture, let hash = room.pictureHash else {
            return out.refuse(ProtocolError(.badPicture, "room '\(room.name)' has no picture"))
        }
        guard let wire = room.pictureWire(format) else {
            return out.add(.encodePicture(PictureEncoding(room: room.name, picture: picture, format: format, hash: hash),
                                          deferring: request))
        }
        out.add(.chargeRoom(wire.lines.count))
        out.send(lines: wire.lines)
        out.send(.picture(width: wire.width, height: wire.height, hash: wire.hash))
    }

    /// LAYOUT: where every piece of the current puzzle started. `LAYOUT
    /// <puzzle>`: of that puzzle, the current one or a solved one the room
    /// keeps, with its `S table` and `S edges` first (a client draws its
    /// replay from them; the snapshot has them only for the current one).
    func sendLayout(of room: HostedRoom, puzzle: Int?) {
        let state = room.state
        if puzzle == nil || puzzle == state.puzzleIndex {
            let bytes = puzzle == nil ? room.startLayoutLines : room.layoutLines + room.startLayoutLines
            out.add(.chargeRoom(bytes.count))
            out.send(lines: bytes)
            return out.send(.layout(pieces: state.pieceCount, puzzle: state.puzzleIndex, seed: state.settings.seed))
        }
        guard let puzzle, let kept = room.history.first(where: { $0.puzzle == puzzle }) else {
            return out.refuse(.unknownPuzzle(puzzle ?? 0, room: room.name, kept: room.history.map(\.puzzle)))
        }
        let bytes = room.keptLayoutLines(kept)
        out.add(.chargeRoom(bytes.count))
        out.send(lines: bytes)
        out.send(.layout(pieces: kept.spec.rows * kept.spec.cols, puzzle: puzzle, seed: kept.seed))
    }

    /// HISTORY: the solved puzzles the room keeps (or one of them).
    func sendHistory(of room: HostedRoom, puzzle: Int?) {
        let listed = room.history.filter { puzzle == nil || $0.puzzle == puzzle }
        if let puzzle, listed.isEmpty {
            return out.refuse(.unknownPuzzle(puzzle, room: room.name, kept: room.history.map(\.puzzle)))
        }
        var bytes: [UInt8] = []
        for replay in listed { ReplayCodec.encodeHistory(replay, into: &bytes) }
        out.send(lines: bytes)
        out.send(.history(count: listed.count))
    }

    /// REPLAY: a kept replay's lines as one write (the slow-reader rules pace
    /// it like a snapshot), a page of moves at a time: from move 0, its start,
    /// players and picture (the puzzle's, which may not be the room's now) too.
    func sendReplay(_ puzzle: Int, from: Int, of room: HostedRoom, request: Request, pictures: inout PictureLibrary) {
        let refusal = ProtocolError.unknownPuzzle(puzzle, room: room.name, kept: room.history.map(\.puzzle))
        guard room.history.contains(where: { $0.puzzle == puzzle }) else { return out.refuse(refusal) }
        let replay: PuzzleReplay
        if let unsaved = room.unsavedReplay, unsaved.puzzle == puzzle {
            replay = unsaved
        } else if let read = room.lastReplayRead, read.puzzle == puzzle {
            replay = read
        } else {
            // Read off the loop; the request is answered again once it is in memory.
            do {
                let path = try store.replayPath(room: room.name, puzzle: puzzle)
                return out.add(.readReplay(ReplayRead(room: room.name, puzzle: puzzle, path: path), deferring: request))
            } catch {
                return refuseUnreadable(puzzle, of: room.name, error)
            }
        }
        let spec = replay.spec
        let picture = from == 0 ? pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols) : nil
        var bytes: [UInt8] = []
        let page = ReplayCodec.encodePage(replay, from: from, pageMoves: replayPageMoves, picture: picture, into: &bytes)
        out.send(lines: bytes)
        // Kept only while a reader goes through its pages: rooms hold no replay for long.
        if page.upperBound == replay.moves.count { room.lastReplayRead = nil }
        out.send(.replay(puzzle: puzzle, moves: page.count, more: page.upperBound < replay.moves.count ? page.upperBound : nil))
    }

    /// A replay read off the loop (`ReplayRead`) for `room` (nil: no longer
    /// hosted): kept in memory for the REPLAY that waited, which is then
    /// answered again (true); or that REPLAY's refusal, and false.
    func finishReplayRead(_ done: ReplayRead.Done, room: HostedRoom?) -> Bool {
        let read = done.read
        switch done.result {
        case .success(let replay?):
            guard let room else { out.refuse(.unknownRoom(read.room)); return false }
            room.lastReplayRead = replay
            return true
        case .success(nil):
            out.refuse(.unknownPuzzle(read.puzzle, room: read.room, kept: room?.history.map(\.puzzle) ?? []))
        case .failure(let error):
            refuseUnreadable(read.puzzle, of: read.room, error)
        }
        return false
    }

    private func refuseUnreadable(_ puzzle: Int, of room: String, _ error: RoomStoreError) {
        logger.error("room \(room): \(error)")
        out.refuse(.storage("the replay of puzzle \(puzzle) could not be read (\(RoomStoreError.reason(error)))"))
    }
}
