import PuzzleCore

/// Version 2 players whose connection dropped, each still in its room for one
/// lease (at most `longestAway`) and while it holds a piece, so that a
/// reconnect with the resume token takes its place again
/// (`RoomKeeper` says what happens to them).
///
/// Not thread-safe: owned by the server's event loop.
struct AwayPlayers {
    /// The longest a dropped player stays (a room's lease may be an hour): long
    /// enough for a reconnect, short enough not to keep a ghost in WHO.
    static let longestAway: Int64 = 30_000

    private var byPlayer: [PlayerID: AwayPlayer] = [:]

    var isEmpty: Bool { byPlayer.isEmpty }

    subscript(player: PlayerID) -> AwayPlayer? { byPlayer[player] }

    /// `player` dropped from `room` at `now`, last connected from `host`.
    mutating func keep(_ player: PlayerID, in room: HostedRoom, from host: String, now: Int64) {
        let until = now.clampedAdding(min(room.state.settings.leaseMillis, Self.longestAway))
        byPlayer[player] = AwayPlayer(room: room, until: until, host: host)
    }

    /// Ends `player`'s stay (it came back, left, or gave its place up).
    @discardableResult
    mutating func remove(_ player: PlayerID) -> AwayPlayer? {
        byPlayer.removeValue(forKey: player)
    }

    /// Ends the stays that are over at `now` for players who hold nothing
    /// (every hold expired, or ended by a solve); returns them.
    mutating func removeSettled(now: Int64) -> [(player: PlayerID, away: AwayPlayer)] {
        let settled = byPlayer.filter { now >= $0.value.until && $0.value.room.state.players[$0.key]?.holding.isEmpty != false }
        for player in settled.keys { byPlayer[player] = nil }
        return settled.map { ($0.key, $0.value) }
    }

    /// Ends every stay; returns them.
    mutating func removeAll() -> [(player: PlayerID, away: AwayPlayer)] {
        defer { byPlayer.removeAll() }
        return byPlayer.map { ($0.key, $0.value) }
    }

    /// When the first stay ends (nil: nobody is away).
    var nextEnd: Int64? { byPlayer.values.lazy.map(\.until).min() }
}

/// A player whose link dropped: still in `room` until `until` (server clock,
/// ms) and while it holds a piece, last seen from `host`.
struct AwayPlayer {
    let room: HostedRoom
    let until: Int64
    let host: String
}
