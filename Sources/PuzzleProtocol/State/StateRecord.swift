import PuzzleCore

/// A state line (`S <kind> ...`) the server writes outside a room snapshot's
/// own records: the entries of the HELP, ROOMS and WHO listings, and what a
/// snapshot or a catch-up adds that the room state does not hold (who
/// watches, the clock). `StateRecordCodec` writes and reads them; the
/// snapshot's records (`S room` header, `S player`, `S piece`, ...) are
/// `SnapshotCodec`'s, a replay's `ReplayCodec`'s.
public enum StateRecord: Hashable, Sendable {
    /// `S help <usage>`: one request's usage (HELP).
    case help(usage: String)
    /// `S room <name> kind= ...`: one room (ROOMS).
    case room(RoomListing)
    /// `S who <id> <name> moves=<n> holding=<p,q|->`: a player (WHO), with the
    /// pieces it holds in the order grabbed.
    case whoPlayer(id: PlayerID, name: String, moves: Int, holding: [Int])
    /// `S who <id> <name> watching`: a watcher (WHO, version 2), after the players.
    case whoWatcher(id: PlayerID, name: String)
    /// `S watcher <id> <name>`: one of the room's watchers, in a version 2
    /// snapshot or catch-up (which list them all).
    case watcher(id: PlayerID, name: String)
    /// `S clock <elapsed-ms> running|paused`: the room's clock at a
    /// catch-up (events carry no time).
    case clock(elapsedMillis: Int64, running: Bool)
}
