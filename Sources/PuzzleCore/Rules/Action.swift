/// Something a player asks a room to do. The room validates it against the
/// current state and either refuses it (changing nothing) or turns it into events.
public enum Action: Hashable, Sendable {
    /// Arrive in the room. `color`: the colour slot the player had last
    /// (anywhere, kept by the server): taken again if no one present has it
    /// (see `PlayerRoster.slot(preferring:for:)`); nil, or taken: the lowest free.
    case join(name: String, color: Int? = nil)
    case leave
    case grab(piece: Int)
    /// Move a held piece so that its top-left corner is at `to` (table units).
    case drag(piece: Int, to: Point)
    /// Turn a held piece a quarter turn clockwise.
    case rotate(piece: Int)
    /// Let go of a held piece where it is: it lands on its drop target, if any.
    case drop(piece: Int)
    /// Cancel a drag: the piece goes back where it was grabbed.
    case release(piece: Int)
    /// Renew the lease of a held piece without moving it: the holder is still
    /// there (a button held down, a chat line being typed). Nobody else is told.
    case keep(piece: Int)
    case hint
    case next
}
