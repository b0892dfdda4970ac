import PuzzleCore
/// Where a room's files live: `<dir>/rooms/<name>/{snapshot,journal}` plus the
/// previous generation of each (`snapshot.prev`, `journal.prev`) and the
/// temporary file a snapshot is written to before it is renamed into place.
struct RoomPaths {
    let directory: String
    let snapshot: String
    let previousSnapshot: String
    let temporarySnapshot: String
    let journal: String
    let previousJournal: String

    init(roomsDirectory: String, name: String) {
        directory = roomsDirectory + "/" + name
        snapshot = directory + "/snapshot"
        previousSnapshot = directory + "/snapshot.prev"
        temporarySnapshot = directory + "/snapshot.tmp"
        journal = directory + "/journal"
        previousJournal = directory + "/journal.prev"
    }
}

extension RoomStore {
    func paths(_ name: String) throws(RoomStoreError) -> RoomPaths {
        guard NameRule.isValid(name) else { throw .invalidName(name) }
        return RoomPaths(roomsDirectory: roomsDirectory, name: name)
    }
}
