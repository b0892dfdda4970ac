import PuzzleCore

/// How players leave rooms: on purpose (LEAVE, QUIT, idle, shutdown), or by
/// losing their connection, when a version 2 player (who can come back with
/// its resume token) keeps the pieces it holds for the rest of their leases.
extension PuzzleServer {
    /// Removes the connection's player from its room, returning held pieces.
    func leaveRoom(_ conn: Connection) {
        guard let room = conn.room, let player = conn.player else { return }
        room.remove(conn)
        conn.room = nil
        performRegardless(.leave, in: room, by: player)
        logger.info("\(conn.label) left \(room.name)")
    }

    /// The connection is gone (or another connection took its player over)
    /// without a goodbye. A player that can resume and holds pieces stays in
    /// the room, holds and all, until the leases run out (nothing renews them
    /// meanwhile); coming back with its token and joining the room again picks
    /// them up. Anyone else leaves at once.
    func dropFromRoom(_ conn: Connection) {
        guard let room = conn.room, let player = conn.player else { return }
        guard conn.version >= 2, !shuttingDown, room.state.players[player]?.holding.isEmpty == false else {
            return leaveRoom(conn)
        }
        room.remove(conn)
        conn.room = nil
        awayHolders[player] = room
        logger.info("\(conn.label) dropped holding \(room.state.players[player]?.holding ?? []) in \(room.name); kept until the lease ends")
    }

    /// Players who dropped while holding and whose holds have all ended
    /// (expired, or ended by a solve) leave now.
    func settleAwayHolders() {
        guard !awayHolders.isEmpty else { return }
        for (player, room) in awayHolders where room.state.players[player]?.holding.isEmpty != false {
            awayHolders[player] = nil
            guard room.state.players[player] != nil else { continue }
            performRegardless(.leave, in: room, by: player)
            logger.info("player \(player) left \(room.name): did not come back before its holds ended")
        }
    }

    /// A player joining a room after dropping: whether it is still in that
    /// room with its holds (then it simply takes its place again). Still
    /// away in another room, it leaves that one first.
    func returnFromAway(_ player: PlayerID, to room: HostedRoom) -> Bool {
        guard let away = awayHolders.removeValue(forKey: player) else { return false }
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
