import PuzzleCore
import PuzzleProtocol

/// A room a CREATE asked for, built and written off the loop (issue 31:
/// laying out a 100x100 took 1.3 ms, encoding its snapshot and syncing its
/// three files 3 ms more, and pipelined CREATEs held a bystander's PING
/// past 10 ms). The loop has checked the request, drawn the room's seed and
/// taken its name (`RoomDirectory.creating`); the connection that asked
/// waits, and is answered once the room is hosted (`RoomKeeper.finishCreate`).
struct RoomCreation: Sendable {
    /// The connection that asked (filled in by the loop).
    var token: UInt64 = 0
    /// The address that asked (filled in by the router): charged for the
    /// room when it was begun, given it back if the room cannot be made.
    var host = ""
    let name: String
    let password: String?
    let settings: RoomSettings
    /// The piece count the CREATE asked for, if it gave one (the reply then
    /// says the board made).
    let askedPieces: Int?
    let files: NewRoomFiles
    let now: Int64

    /// What building and writing it gave: the room's first state once its
    /// files are durable, or why they are not.
    struct Done: Sendable {
        let creation: RoomCreation
        let result: Result<(state: RoomState, written: NewRoomFiles.Written), RoomStoreError>
    }

    /// Lays the room out and writes its files (on the worker's thread).
    func run() -> Done {
        let state = RoomState(settings: settings)
        let stored = StoredRoom(snapshot: RoomSnapshot(name: name, state: state, picture: nil), password: password)
        do {
            return Done(creation: self, result: .success((state, try files.write(stored, now: now))))
        } catch {
            return Done(creation: self, result: .failure(error))
        }
    }
}
