import PuzzleCore
import PuzzleProtocol

/// What the room store keeps for a room: its state (as a snapshot, without the
/// picture, which the server rebuilds from the picture name), its password,
/// the replay of its current puzzle so far, and its solved puzzles' replays.
public struct StoredRoom: Equatable, Sendable {
    public var snapshot: RoomSnapshot
    public var password: String?
    /// The current puzzle's replay so far (kept in the snapshot file, so that
    /// compaction never loses a move of an unsolved puzzle); nil: none yet.
    public var replay: PuzzleReplay?
    /// The solved puzzles whose replays are kept (`replay.<puzzle>` files),
    /// oldest first, without their moves (HISTORY's summaries). Filled by
    /// `loadAll`; never written by `snapshot`.
    public var history: [PuzzleReplay]

    public init(snapshot: RoomSnapshot, password: String?, replay: PuzzleReplay? = nil, history: [PuzzleReplay] = []) {
        self.snapshot = snapshot
        self.password = password
        self.replay = replay
        self.history = history
    }

    /// The room's name (also its directory name on disk).
    public var name: String { snapshot.name }
}
