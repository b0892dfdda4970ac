import PuzzleCore

/// How players leave rooms: on purpose (LEAVE, QUIT, idle, shutdown), or by
/// losing their connection, when a version 2 player (who can come back with
/// its resume token) stays a while, with the pieces it holds.
extension PuzzleServer {
    /// Removes the connection's player from its room, returning held pieces.
    /// A player resumed on this connection and not joined again is still away
    /// in the room it dropped from: a goodbye ends that stay too.
    func leaveRoom(_ conn: Connection) {
        // A watcher stops watching; a player away from an earlier link still leaves below.
        if conn.watching { stopWatching(conn) }
        guard let player = conn.player else { return }
        guard let room = conn.room else {
            if let away = awayPlayers.remove(player), away.room.state.players[player] != nil {
                performRegardless(.leave, in: away.room, by: player)
                logger.info("\(conn.label) left \(away.room.name), where it was away")
            }
            return
        }
        room.remove(conn)
        conn.room = nil
        performRegardless(.leave, in: room, by: player)
        logger.info("\(conn.label) left \(room.name)")
    }

    /// The connection is gone (or another connection took its player over)
    /// without a goodbye. A player that can resume stays in the room for one
    /// lease (the room's `lease`, at most `AwayPlayers.longestAway`), and for as long as
    /// it still holds a piece (nothing renews those leases): a link that
    /// blinks shows nobody a leave and a join, and coming back with its token
    /// and joining the room again picks up where it was. A version 1 player
    /// leaves at once.
    func dropFromRoom(_ conn: Connection) {
        guard !conn.watching else { return stopWatching(conn) }
        guard let room = conn.room, let player = conn.player else { return }
        guard conn.version >= 2, !shuttingDown else { return leaveRoom(conn) }
        room.remove(conn)
        conn.room = nil
        awayPlayers.keep(player, in: room, from: conn.host, now: now)
        let holding = room.state.players[player]?.holding ?? []
        logger.info("\(conn.label) dropped\(holding.isEmpty ? "" : " holding \(holding)") in \(room.name); kept until the lease ends")
    }

    /// Players who dropped and did not come back within their stay, and whose
    /// holds have all ended (expired, or ended by a solve), leave now.
    func settleAwayPlayers() {
        guard !awayPlayers.isEmpty else { return }
        for (player, away) in awayPlayers.removeSettled(now: now) {
            guard away.room.state.players[player] != nil else { continue }
            performRegardless(.leave, in: away.room, by: player)
            logger.info("player \(player) left \(away.room.name): did not come back within its lease")
        }
    }

    /// A player joining a room after dropping: whether it is still in that
    /// room, holds and all (then it simply takes its place again). Still
    /// away in another room, it leaves that one first.
    func returnFromAway(_ player: PlayerID, to room: HostedRoom) -> Bool {
        guard let away = awayPlayers.remove(player)?.room else { return false }
        if away === room, room.state.players[player] != nil { return true }
        if away.state.players[player] != nil { performRegardless(.leave, in: away, by: player) }
        return false
    }

    /// Performs an action no player can be refused (leaving). Its durable
    /// events are journaled when the disk takes them; when it does not, the
    /// action happens anyway (a full disk must not keep anyone in a room) and
    /// the log says what a restart may not know.
    func performRegardless(_ action: Action, in room: HostedRoom, by player: PlayerID) {
        events.removeAll(keepingCapacity: true)
        guard (try? room.plan(action, by: player, at: now, into: &events)) != nil else { return }
        do {
            try store.append(room: room.name, events: events)
        } catch {
            logger.error("room \(room.name): \(action) of player \(player) not journaled (\(error)); a restart may not know it")
        }
        room.state.apply(planned: events)
        room.broadcast(events)
    }
}
