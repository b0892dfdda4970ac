/// Whether the player is visibly at the table, so that the client keeps its holds (KEEP):
/// the mouse button held down on its piece, or a key or mouse event lately (typing a line,
/// moving the pointer in click mode). A hold the player walked away from still lapses: one
/// presence window after the last sign of life the KEEPs stop, and the lease runs out.
///
/// The window is a third of the room's lease, the same third after which a kept hold is
/// renewed: a player who stops typing mid-line, or leaves a piece picked up in click mode,
/// loses it at most `lease + lease / 3` after the last key, as if it had never been kept.
struct PlayerPresence: Sendable {
    /// When the player last pressed a key or used the mouse (milliseconds of the app's clock).
    private(set) var lastSeen: Int64?

    /// A key or mouse event at `t`.
    mutating func seen(at t: Int64) { lastSeen = t }

    /// How long after its last key or mouse event a player still counts as there.
    static func window(lease: Int64) -> Int64 { max(1, lease / 3) }

    /// Whether the player counts as there at `now`: `buttonDown` (pressing on its piece) is
    /// always being there; otherwise a key or mouse event within the window.
    func isPresent(now: Int64, buttonDown: Bool, lease: Int64) -> Bool {
        if buttonDown { return true }
        guard let lastSeen else { return false }
        return now - lastSeen < Self.window(lease: lease)
    }
}
