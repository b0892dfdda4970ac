import PuzzleProtocol

/// Where the player sits: the room it is in or has asked for, that room's
/// password, whether it watches or plays there, and, while a `/join` from a
/// room is in flight, the seat to go back to if the switch is refused or
/// lost with the link. `ClientSession` asks it which request enters the room
/// and tells it what the server answered; the connection's phase stays the
/// session's.
struct RoomSeat: Sendable, Equatable {
    /// A room and how the player sits in it.
    struct Place: Hashable, Sendable {
        var name: String
        var password: String?
        var watching: Bool
    }

    /// The room this session plays in (or is joining); nil while the player picks one.
    private(set) var room: String?
    /// The password presented with `room`.
    private(set) var password: String?
    /// Watching the room (`WATCH`), not playing in it (also meant with no
    /// room yet: `--watch` watches the room picked at start-up).
    private(set) var watching: Bool
    /// While a switch (`/join` from a room) is in flight: the seat it left.
    private(set) var previous: Place?

    init(room: String?, password: String?, watching: Bool) {
        self.room = room
        self.password = password
        self.watching = watching
    }

    /// The seat now, if it names a room.
    var place: Place? { room.map { Place(name: $0, password: password, watching: watching) } }

    /// The player asks for `target` (`/join`, `/watch`): the request that asks
    /// the server. `switching`: asked from a room, which the seat remembers
    /// until the server answers (a refusal leaves the player there).
    mutating func ask(_ target: String, password secret: String?, watch: Bool, switching: Bool) -> Request {
        previous = switching ? place : nil
        room = target
        password = secret
        watching = watch
        return watch ? .watch(room: target, password: secret) : .join(room: target, password: secret)
    }

    /// The only room on the server, taken at start-up without asking: the
    /// request that enters it (as `--watch` says; no password is presented).
    mutating func takeOnly(_ name: String) -> Request {
        room = name
        return watching ? .watch(room: name, password: nil) : .join(room: name, password: nil)
    }

    /// The request that enters the seat's room on a new connection, nil with
    /// no room. `mirrored`: the room the client mirrors, the seq it reached
    /// and that room's run; a player going back to the room it mirrors
    /// catches up from there (`REJOIN`, protocol version 2) instead of taking
    /// a whole snapshot.
    func entryRequest(mirrored: (room: String, seq: UInt64, run: String)?) -> Request? {
        guard let room else { return nil }
        if watching { return .watch(room: room, password: password) }
        if let m = mirrored, m.room == room, ProtocolVersion.current >= 2 {
            return .rejoin(room: room, seq: m.seq, run: m.run, password: password)
        }
        return .join(room: room, password: password)
    }

    /// The switch is over without an answer (refused, or the link that
    /// carried it dropped): back to the seat it left, which is returned; nil
    /// (and the seat unchanged) when no switch was under way.
    mutating func goBack() -> Place? {
        guard let back = previous else { return nil }
        previous = nil
        room = back.name
        password = back.password
        watching = back.watching
        return back
    }

    /// The player's own `/join` was refused: back to the seat a switch left
    /// (returned), or, asked from no room, to no room again (nil).
    mutating func refused() -> Place? {
        if let back = goBack() { return back }
        room = nil
        watching = false
        return nil
    }

    /// The room is full: the seat watches it instead of playing.
    mutating func watchInstead() {
        watching = true
    }

    /// The server let the player in: no switch to undo any more. `watching`:
    /// what the reply says the player does there (nil when it does not say).
    mutating func entered(watching now: Bool?) {
        previous = nil
        if let now { watching = now }
    }

    /// A new greeting on the connection: a switch still remembered is not
    /// the one being answered any more.
    mutating func forgetSwitch() {
        previous = nil
    }
}
