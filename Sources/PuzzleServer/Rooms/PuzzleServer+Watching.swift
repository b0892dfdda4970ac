import PuzzleCore
import PuzzleProtocol

/// Watchers (version 2's `WATCH`): connections that follow a room live, see
/// every event and may chat, but are no players (not in the room's state,
/// not counted as players, cannot grab). The room's members are told who
/// comes to watch and who goes (`watching`, `unwatching`, unsequenced like chat).
extension PuzzleServer {
    func watch(_ name: String, password: String?, request: Request, conn: Connection, player: PlayerID) {
        guard conn.version >= 2 else { return reply(conn, error: .versionTwoOnly("WATCH")) }
        guard let room = rooms[name] else { return reply(conn, error: .unknownRoom(name)) }
        if conn.room === room && conn.watching { return reply(conn, error: .alreadyInThisRoom(name)) }
        guard !refusesPassword(password, of: room, conn: conn, request: request) else { return }
        // Watching is not playing: a player here or elsewhere leaves first
        // (its holds go back), as for a switch.
        // (Also a player away after its earlier link dropped: its stay ends.)
        leaveRoom(conn)
        room.broadcast(line: EventCodec.encodeWatching(seq: room.state.seq, player: player, name: conn.name ?? "-"))
        room.add(conn)
        conn.room = room
        conn.watching = true
        upkeep.visited(room.name, by: player)
        sendSnapshot(room, to: conn)
        conn.send(.watching(room: room.name, seq: room.state.seq, run: room.recent.run))
        logger.info("\(conn.label) watches \(room.name)")
    }

    /// A watcher goes (LEAVE, QUIT, a JOIN, a dropped link): the others are told.
    func stopWatching(_ conn: Connection) {
        guard conn.watching, let room = conn.room else { return }
        room.remove(conn)
        conn.room = nil
        conn.watching = false
        if let player = conn.player {
            room.broadcast(line: EventCodec.encodeWatching(seq: room.state.seq, player: player, name: nil))
        }
        logger.info("\(conn.label) stopped watching \(room.name)")
    }
}
