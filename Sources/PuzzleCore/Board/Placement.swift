/// Where a jigsaw piece may go into the board: a room setting (`place=`),
/// fixed when the room is created.
public enum Placement: String, Hashable, Sendable, CaseIterable {
    /// Only its own cell, unturned: a piece that goes in is right, so a wrong
    /// piece never looks placed (the web jigsaws' rule, and the default).
    case own
    /// Any cell where its shape fits beside its neighbours (the seeds' drop
    /// zones): a piece may sit in a wrong cell whose edges it matches.
    case shape
}
