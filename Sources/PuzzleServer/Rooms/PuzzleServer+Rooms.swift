import PuzzleCore
import PuzzleProtocol

/// Connections coming to rooms and going: what `RoomKeeper` decides about
/// the rooms and their players, carried out for one connection (its room,
/// its replies, the room's members).
///
/// Watchers (version 2's `WATCH`) follow a room live, see every event and
/// may chat, but are no players (not in the room's state, not counted as
/// players, cannot grab). The room's members are told who comes to watch
/// and who goes (`watching`, `unwatching`, unsequenced like chat).
extension PuzzleServer {
    /// CREATE.
    func createRoom(_ request: RoomSpec, for conn: Connection) {
        switch keeper.open(request, pictures: &pictures, now: clock.now) {
        case .success(let room):
            logger.info("\(conn.label) created room \(room.name)")
            conn.send(.created(room: room.name))
        case .failure(let error):
            reply(conn, error: error)
        }
    }

    /// A solved puzzle's replay (see `RoomKeeper.saveReplay`).
    func saveReplay(_ replay: PuzzleReplay, of room: HostedRoom) {
        keeper.saveReplay(replay, of: room)
    }

    /// Removes the connection's player from its room, returning held pieces.
    /// A player resumed on this connection and not joined again is still away
    /// in the room it dropped from: a goodbye ends that stay too.
    func leaveRoom(_ conn: Connection) {
        // A watcher stops watching; a player away from an earlier link still leaves below.
        if conn.watching { stopWatching(conn) }
        guard let player = conn.player else { return }
        guard let room = conn.room else {
            if let left = keeper.endStay(of: player, now: clock.now) { logger.info("\(conn.label) left \(left.name), where it was away") }
            return
        }
        room.remove(conn)
        conn.room = nil
        keeper.performRegardless(.leave, in: room, by: player, now: clock.now)
        logger.info("\(conn.label) left \(room.name)")
    }

    /// The connection is gone (or another connection took its player over)
    /// without a goodbye. A player that can resume stays away in the room a
    /// while (`RoomKeeper.keepAway`); a version 1 player leaves at once.
    func dropFromRoom(_ conn: Connection) {
        guard !conn.watching else { return stopWatching(conn) }
        guard let room = conn.room, let player = conn.player else { return }
        guard conn.version >= 2, ending == nil else { return leaveRoom(conn) }
        room.remove(conn)
        conn.room = nil
        keeper.keepAway(player, in: room, from: conn.host, now: clock.now)
        let holding = room.state.players[player]?.holding ?? []
        logger.info("\(conn.label) dropped\(holding.isEmpty ? "" : " holding \(holding)") in \(room.name); kept until the lease ends")
    }

    /// WATCH.
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
        keeper.visited(room, by: player)
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
