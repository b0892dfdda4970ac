import PuzzleCore
import PuzzleProtocol

/// Who the session has seen: every player's name, those who left included
/// (so an old line still reads "bob", not "player 7"), and who watches the
/// room now. Watchers are the server's, not the room state's: they come
/// with a snapshot or a catch-up (`S watcher` lines, all of them) and with
/// `watching`/`unwatching` events.
struct Roster: Sendable {
    /// Everyone seen, by id.
    private(set) var names: [PlayerID: String] = [:]
    /// Who watches the room now, by id.
    private(set) var watchers: [PlayerID: String] = [:]

    /// A player's display name.
    func displayName(_ id: PlayerID) -> String {
        names[id] ?? "player \(id.rawValue)"
    }

    /// A player joined, or a snapshot named it.
    mutating func met(_ id: PlayerID, name: String) {
        names[id] = name
    }

    /// The players of a snapshot's room.
    mutating func met(playersOf state: RoomState) {
        for (id, info) in state.players { names[id] = info.name }
    }

    /// `watching`: `id` watches the room now.
    mutating func startedWatching(_ id: PlayerID, name: String) {
        watchers[id] = name
        names[id] = name
    }

    /// `unwatching`: the name of the watcher that went, if it was one.
    mutating func stoppedWatching(_ id: PlayerID) -> String? {
        watchers.removeValue(forKey: id)
    }

    /// The `S watcher <id> <name>` lines of a snapshot or a catch-up, which
    /// list them all: they are the watchers now.
    mutating func adoptWatchers(from lines: [String]) {
        watchers = [:]
        for line in lines where line.utf8.starts(with: "S watcher ".utf8) {
            // Only those lines are read: a snapshot has one a piece (a room followed
            // by snapshots in a flood brings one twice a second).
            guard case .watcher(let id, let name)? = StateRecordCodec.decode(Substring(line)) else { continue }
            startedWatching(id, name: name)
        }
    }
}
