import PuzzleProtocol

/// What the room store keeps for a room: its state (as a snapshot, without the
/// picture, which the server rebuilds from the picture name) and its password.
public struct StoredRoom: Equatable, Sendable {
    public var snapshot: RoomSnapshot
    public var password: String?

    public init(snapshot: RoomSnapshot, password: String?) {
        self.snapshot = snapshot
        self.password = password
    }

    /// The room's name (also its directory name on disk).
    public var name: String { snapshot.name }
}
