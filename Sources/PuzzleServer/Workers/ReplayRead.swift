import PuzzleCore

/// A kept replay's file to read and decode off the loop (a REPLAY of a
/// solved puzzle whose file is not in memory: up to 100,000 moves, tens of
/// milliseconds the loop would otherwise stand still for; issue 31). The
/// connection that asked waits, its REPLAY deferred, and is answered from
/// the room's `lastReplayRead` once the file is read.
struct ReplayRead: Sendable {
    /// The connection that asked (filled in by the loop).
    var token: UInt64 = 0
    let room: String
    let puzzle: Int
    let path: String

    /// What reading it gave: the replay, nil when the file is gone, or why
    /// it could not be read.
    struct Done: Sendable {
        let read: ReplayRead
        let result: Result<PuzzleReplay?, RoomStoreError>
    }

    /// Reads and decodes the file (on the worker's thread).
    func run() -> Done {
        do {
            return Done(read: self, result: .success(try RoomStore.readReplay(at: path, room: room, puzzle: puzzle)))
        } catch {
            return Done(read: self, result: .failure(error))
        }
    }
}
