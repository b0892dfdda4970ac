/// When the server forces its journal to stable storage.
///
/// The journal is what makes "no acknowledged move is lost" true: a move is
/// acknowledged to a player only after its record is in the journal. The policy
/// says how hard the server works to make that record survive a power cut.
public enum FsyncPolicy: String, Equatable, Sendable, CaseIterable {
    /// fdatasync after every request's journal records, before the request is
    /// applied: one disk flush per durable move (a drop that solves the puzzle
    /// writes its two records with one write and one flush). A flush that fails
    /// refuses that move with `ERR STORAGE`. Slowest.
    case always
    /// fsync once per event-loop turn, after every record that turn produced is
    /// written and before any reply from that turn is sent. Every acknowledged
    /// move is therefore on disk, yet a burst of moves handled in one turn costs
    /// a single flush (one `syncfs` when several rooms' journals were written).
    /// If that flush fails, the turn's records are cut and each room affected is
    /// snapshotted instead; if that fails too, the server stops (non-zero exit)
    /// without sending the turn's replies. The default.
    case batch
    /// Never fsync; the operating system writes the journal back when it likes.
    /// A process crash loses nothing, but a machine crash may lose acknowledged moves.
    case never
}
