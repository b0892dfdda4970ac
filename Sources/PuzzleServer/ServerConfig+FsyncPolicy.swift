/// When the server forces its journal to stable storage.
///
/// The journal is what makes "no acknowledged move is lost" true: a move is
/// acknowledged to a player only after its record is in the journal. The policy
/// says how hard the server works to make that record survive a power cut.
public enum FsyncPolicy: String, Equatable, Sendable, CaseIterable {
    /// fsync after every journal record. Safest and slowest: one disk flush per move.
    case always
    /// fsync once per event-loop turn, after every record that turn produced is
    /// written and before any reply from that turn is sent. Every acknowledged
    /// move is therefore on disk, yet a burst of moves handled in one turn costs
    /// a single flush. The default.
    case batch
    /// Never fsync; the operating system writes the journal back when it likes.
    /// A process crash loses nothing, but a machine crash may lose acknowledged moves.
    case never
}
