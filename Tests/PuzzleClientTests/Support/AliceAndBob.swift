import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The session tests' usual room: alice (1) and bob (2) joined to `state`,
/// and alice's session (version 2) having read the room's snapshot, with
/// its outgoing requests and output taken.
enum AliceAndBob {
    /// `state` with alice and bob joined.
    static func joined(_ state: RoomState) throws -> RoomState {
        var st = state
        var ev: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0, into: &ev)
        try st.perform(.join(name: "bob"), by: PlayerID(2), at: 0, into: &ev)
        return st
    }

    /// Alice's session in room `room`, joined to `state` (alice and bob in it).
    static func session(in room: String, of state: RoomState) -> ClientSession {
        var s = ClientSession(name: "alice", room: room)
        s.connected(now: 0)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=1 name=alice server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: room, state: state, picture: nil), now: 0) { s.receive(Substring(line), now: 0) }
        s.receive("OK joined \(room) id=1 seq=\(state.seq)", now: 0)
        _ = s.takeOutput()
        return s
    }
}
