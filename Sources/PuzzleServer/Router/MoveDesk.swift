import PuzzleCore
import PuzzleProtocol

/// A player's moves: an action run through the core, journaled before it is
/// applied, broadcast to the room, and answered with the reply its outcome
/// makes (or the core's refusal, naming players by name).
///
/// Not thread-safe: owned by the server's event loop.
final class MoveDesk {
    private let store: RoomStore
    private let keeper: RoomKeeper
    private let stats: ServerStats
    private let logger: Logger
    private let out: SessionOutbox
    /// Reused event list for core calls.
    private var events: [RoomEvent] = []

    init(store: RoomStore, keeper: RoomKeeper, stats: ServerStats, logger: Logger, out: SessionOutbox) {
        self.store = store
        self.keeper = keeper
        self.stats = stats
        self.logger = logger
        self.out = out
    }

    /// Performs a player's action and answers it with the reply the core's
    /// outcome makes (or the refusal). `pictures`: for the next puzzle's picture.
    func answer(_ action: Action, in room: HostedRoom, by player: PlayerID, now: Int64, pictures: inout PictureLibrary) {
        guard let outcome = perform(action, in: room, by: player, now: now) else { return }
        switch outcome {
        case .joined, .left:
            return  // JOIN and LEAVE answer with their room, not through here
        case .grabbed(let piece):
            out.send(.grabbed(piece: piece))
        case .dragged(let piece, let point, let target):
            stats.drags += 1
            out.send(.dragged(piece: piece, to: point, target: target))
        case .rotated(let piece, let rotation, _):
            out.send(.rotated(piece: piece, rotation: rotation))
        case .dropped(let piece, let drop, let solved, let moved):
            if moved { stats.countMove(at: now) }
            out.send(.dropped(piece: piece, outcome: drop, solved: solved))
        case .released(let piece):
            out.send(.released(piece: piece))
        case .kept(let piece, let until):
            out.send(.kept(piece: piece, leaseLeftMillis: max(0, until - now)))
        case .hint(let millis, _):
            out.send(.hint(millis: millis))
        case .next(let puzzle, let spec):
            room.picture = pictures.terminalPicture(spec.picture, rows: spec.rows, cols: spec.cols)
            out.send(.next(puzzle: puzzle, kind: spec.kind, rows: spec.rows, cols: spec.cols))
        }
    }

    /// Runs an action through the core; a refusal becomes an ERR reply naming
    /// players by name. Returns what the accepted action did, nil if refused.
    ///
    /// The action is planned first (validated, its events computed, the state
    /// unchanged); its durable events are appended to the room's journal; only
    /// then is the state changed and the events broadcast. A move whose record
    /// cannot be written is refused with `ERR STORAGE` and leaves the room as
    /// it was (the piece stays in hand), so that no move is ever made that the
    /// disk does not have.
    @discardableResult
    func perform(_ action: Action, in room: HostedRoom, by player: PlayerID, now: Int64) -> ActionOutcome? {
        events.removeAll(keepingCapacity: true)
        let outcome: ActionOutcome
        do {
            outcome = try room.plan(action, by: player, at: now, into: &events)
        } catch {
            out.refuse(.core(error, name: { id in
                let name = room.state.players[id]?.name ?? "player"
                return id == player ? "you" : "\(name) (#\(id.rawValue))"
            }))
            return nil
        }
        do {
            try store.append(room: room.name, events: events)
        } catch {
            logger.error("room \(room.name): move refused, journal not written: \(error)")
            out.refuse(.storage("the move could not be stored (\(RoomStoreError.reason(error))); it was not made"))
            return nil
        }
        let solved = room.record(events)
        room.state.apply(planned: events)
        room.state.apply(outcome)
        room.broadcast(events)
        if let solved { keeper.saveReplay(solved, of: room) }
        return outcome
    }

    /// The piece a request names, or the one piece the player holds (nil,
    /// answered, when that is not one piece).
    func resolve(_ piece: Int?, in room: HostedRoom, player: PlayerID) -> Int? {
        if let piece { return piece }
        switch room.implicitPiece(of: player) {
        case .piece(let held): return held
        case .noneHeld: out.refuse(ProtocolError(.badArgs, "you hold no piece; GRAB one first"))
        case .severalHeld: out.refuse(ProtocolError(.badArgs, "you hold several pieces; name one"))
        }
        return nil
    }
}
