import PuzzleCore

/// What a long-lived server stops keeping, so that nothing grows without
/// bound: players absent from a room for longer than `forgetAfter` (the room
/// forgets them; their moves stay in its totals), and rooms that players
/// created and that stayed empty for longer than `closeAfter` (closed, their
/// files removed; configured rooms are never closed).
///
/// Times are the server's monotonic milliseconds, counted from when this
/// server saw the player absent or the room empty: a restart starts every
/// count again (a server restarted more often than the limit keeps them).
///
/// Not thread-safe: owned by the server's event loop.
struct RoomUpkeep {
    /// Milliseconds an absent player is kept; nil: for ever.
    let forgetAfter: Int64?
    /// Milliseconds a created room may stay empty; nil: for ever.
    let closeAfter: Int64?
    /// Rooms that are never closed (the configuration's).
    let configured: Set<String>

    /// Since when each absent player of each room has been seen absent.
    private var absentSince: [String: [PlayerID: Int64]] = [:]
    /// Since when each created room has been seen empty.
    private var emptySince: [String: Int64] = [:]

    init(forgetAfterSeconds: Int, closeAfterSeconds: Int, configured: Set<String>) {
        forgetAfter = forgetAfterSeconds > 0 ? Int64(forgetAfterSeconds) * 1000 : nil
        closeAfter = closeAfterSeconds > 0 ? Int64(closeAfterSeconds) * 1000 : nil
        self.configured = configured
    }

    /// What is due at `now`: each room's players to forget (in id order), and
    /// the rooms to close. A player or room that is due stays counted until
    /// it is gone, so a step that failed (a full disk) comes up again.
    mutating func due(in rooms: some Sequence<HostedRoom>, now: Int64) -> (forget: [(room: HostedRoom, players: [PlayerID])], close: [HostedRoom]) {
        var forget: [(room: HostedRoom, players: [PlayerID])] = []
        var close: [HostedRoom] = []
        var seen = Set<String>()
        for room in rooms {
            seen.insert(room.name)
            if let limit = forgetAfter {
                let absent = room.state.absent
                if absent.isEmpty {
                    absentSince[room.name] = nil
                } else {
                    var since = absentSince[room.name] ?? [:]
                    // Back in the room, or forgotten: no longer counted.
                    since = since.filter { absent[$0.key] != nil }
                    var due: [PlayerID] = []
                    for id in absent.keys {
                        let start = since[id] ?? now
                        since[id] = start
                        if now - start >= limit { due.append(id) }
                    }
                    absentSince[room.name] = since
                    if !due.isEmpty { forget.append((room, due.sorted())) }
                }
            }
            if let limit = closeAfter, !configured.contains(room.name) {
                if room.state.players.isEmpty && room.members.isEmpty {
                    let start = emptySince[room.name] ?? now
                    emptySince[room.name] = start
                    if now - start >= limit { close.append(room) }
                } else {
                    emptySince[room.name] = nil
                }
            }
        }
        // Rooms gone (closed) are no longer counted.
        if absentSince.count > seen.count { absentSince = absentSince.filter { seen.contains($0.key) } }
        if emptySince.count > seen.count { emptySince = emptySince.filter { seen.contains($0.key) } }
        return (forget, close)
    }

    /// Someone came to the room (joined, came back, or watches): the player's
    /// absence and the room's emptiness start again from the next time they
    /// are seen, even if the visit ends before the next sweep looks.
    mutating func visited(_ room: String, by player: PlayerID) {
        absentSince[room]?[player] = nil
        emptySince[room] = nil
    }

    /// Stops counting a room that was closed.
    mutating func closed(_ name: String) {
        absentSince[name] = nil
        emptySince[name] = nil
    }
}
