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

    var count: Int { byName.count }
    var values: Dictionary<String, HostedRoom>.Values { byName.values }
    /// Every room, by name (for `ROOMS` and the start-up messages).
    var sorted: [HostedRoom] { byName.values.sorted { $0.name < $1.name } }
    var names: [String] { byName.keys.sorted() }

    subscript(name: String) -> HostedRoom? { byName[name] }

    /// Why a new room of this name cannot be opened (`ROOM_EXISTS`,
    /// `TOO_MANY_ROOMS`), or nil when it can.
    func refusal(ofNew name: String) -> ProtocolError? {
        if byName[name] != nil { return .roomExists(name) }
        if byName.count >= Self.maxRooms { return .tooManyRooms }
        return nil
    }

    /// Hosts a room (restored, configured or created); its name is free.
    func add(_ room: HostedRoom) {
        precondition(byName[room.name] == nil, "room \(room.name) is hosted twice")
        byName[room.name] = room
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
        byName.values.lazy.flatMap { Array($0.state.players.keys) + Array($0.state.absent.keys) }.map(\.rawValue).max() ?? 0
    }
}
