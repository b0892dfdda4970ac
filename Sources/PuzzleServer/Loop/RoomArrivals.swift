import PuzzleSystem

/// The rooms coming in from disk after a restart, on the loop's side: the
/// loader reading them off the loop (`RoomLoader`), the connections waiting
/// for one of them (a JOIN or WATCH of a room still loading), and when the
/// last one came.
///
/// Not thread-safe: owned by the server's event loop.
final class RoomArrivals {
    let loader: RoomLoader
    /// Connections paused until a room loads, by the room's name.
    private var waiting: [String: [Connection]] = [:]
    /// How many rooms were found on disk, and when loading them began (the
    /// server's monotonic milliseconds; nil once all of them are in).
    let total: Int
    private var startedAt: Int64?

    init(loader: RoomLoader, total: Int, startedAt: Int64) {
        self.loader = loader
        self.total = total
        self.startedAt = total > 0 ? startedAt : nil
    }

    /// Connections paused until every room is in (a ROOMS).
    private var waitingForAll: [Connection] = []

    /// `conn` waits for `room` (its request deferred), which loads next; or,
    /// with `room` nil, for every room.
    func wait(_ conn: Connection, for room: String?) {
        guard let room else { return waitingForAll.append(conn) }
        waiting[room, default: []].append(conn)
        loader.hurry(room)
    }

    /// The connections that waited for `room`, which is now in (or failed).
    func arrived(_ room: String) -> [Connection] {
        waiting.removeValue(forKey: room) ?? []
    }

    /// The last room came in: how long loading took, in milliseconds, and
    /// the connections that waited for every room (once; nil after).
    func finish(now: Int64) -> (millis: Int64, waiting: [Connection])? {
        guard let startedAt else { return nil }
        self.startedAt = nil
        defer { waitingForAll = [] }
        return (now - startedAt, waitingForAll)
    }
}
