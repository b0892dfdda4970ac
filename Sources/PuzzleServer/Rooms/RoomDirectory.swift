import PuzzleCore
import PuzzleProtocol

/// The rooms a server hosts, by name, and the rule on how many it may: what
/// `CREATE`, `JOIN`, `ROOMS` and the loop's timers look rooms up in.
///
/// Not thread-safe: owned by the server's event loop.
final class RoomDirectory {
    /// Most rooms a server hosts (CREATE beyond this is refused).
    static let maxRooms = 1000

    private var byName: [String: HostedRoom] = [:]
    /// Rooms found on disk at start-up and not loaded yet (`RoomLoader`):
    /// their names are taken, and a JOIN or WATCH of one waits for it.
    private(set) var loading: Set<String> = []
    /// Rooms a CREATE is making off the loop (`RoomCreation`): their names
    /// are taken, though no one can join them yet.
    private(set) var creating: Set<String> = []

    var count: Int { byName.count }
    var values: Dictionary<String, HostedRoom>.Values { byName.values }
    /// Every room, by name (for `ROOMS` and the start-up messages).
    var sorted: [HostedRoom] { byName.values.sorted { $0.name < $1.name } }
    var names: [String] { byName.keys.sorted() }
    /// The hosted rooms' names and those still loading, sorted.
    var namesWithLoading: [String] { (Array(byName.keys) + loading).sorted() }

    subscript(name: String) -> HostedRoom? { byName[name] }

    /// Why a new room of this name cannot be opened (`ROOM_EXISTS`,
    /// `TOO_MANY_ROOMS`), or nil when it can.
    func refusal(ofNew name: String) -> ProtocolError? {
        if byName[name] != nil || loading.contains(name) || creating.contains(name) { return .roomExists(name) }
        if byName.count + loading.count + creating.count >= Self.maxRooms { return .tooManyRooms }
        return nil
    }

    /// Hosts a room (restored, configured or created); its name is free,
    /// or was loading.
    func add(_ room: HostedRoom) {
        precondition(byName[room.name] == nil, "room \(room.name) is hosted twice")
        loading.remove(room.name)
        byName[room.name] = room
    }

    /// Rooms on disk to be loaded: their names are taken meanwhile.
    func willLoad(_ names: some Sequence<String>) {
        loading.formUnion(names)
    }

    /// A room that was loading and could not be (its files are damaged):
    /// its name is no room's.
    func failedToLoad(_ name: String) {
        loading.remove(name)
    }

    /// A CREATE's room is being made: its name is taken meanwhile.
    func willCreate(_ name: String) {
        creating.insert(name)
    }

    /// A CREATE's room is made (then `add`ed) or could not be: its name is no
    /// longer held for it.
    func creationEnded(_ name: String) {
        creating.remove(name)
    }

    /// Whether `name` is a room still loading.
    func isLoading(_ name: String) -> Bool {
        loading.contains(name)
    }

    /// Stops hosting a room (closed after standing empty too long).
    func remove(_ name: String) {
        byName[name] = nil
    }

    /// Bytes all rooms' rejoin rings hold (`RecentEvents.memoryBytes`).
    var rejoinMemoryBytes: Int { byName.values.reduce(0) { $0 + $1.recent.memoryBytes } }

    /// Players present in any room (away ones among them).
    var playerCount: Int { byName.values.reduce(0) { $0 + $1.state.players.count } }

    /// The largest player id any room remembers, present or absent (0 if none).
    var largestPlayerID: Int {
        byName.values.map(\.largestPlayerID).max() ?? 0
    }
}
