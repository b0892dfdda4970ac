import PuzzleCore
/// Where a room's files live: `<dir>/rooms/<name>/{snapshot,journal}` plus the
/// previous generation of each (`snapshot.prev`, `journal.prev`), the room as
/// it was created (`snapshot.origin`), and the temporary files a snapshot and
/// a fresh journal are written to before they are renamed into place.
struct RoomPaths: Sendable {
    let name: String
    let directory: String
    let snapshot: String
    let previousSnapshot: String
    let temporarySnapshot: String
    let originSnapshot: String
    let journal: String
    let previousJournal: String
    let temporaryJournal: String

    init(roomsDirectory: String, name: String) {
        self.name = name
        directory = roomsDirectory + "/" + name
        snapshot = directory + "/snapshot"
        previousSnapshot = directory + "/snapshot.prev"
        temporarySnapshot = directory + "/snapshot.tmp"
        originSnapshot = directory + "/snapshot.origin"
        journal = directory + "/journal"
        previousJournal = directory + "/journal.prev"
        temporaryJournal = directory + "/journal.tmp"
    }
}

extension RoomStore {
    func paths(_ name: String) throws(RoomStoreError) -> RoomPaths {
        guard NameRule.isValid(name) else { throw .invalidName(name) }
        return RoomPaths(roomsDirectory: roomsDirectory, name: name)
    }
}
