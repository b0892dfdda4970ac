/// Where a room's files live: `<dir>/rooms/<name>/{snapshot,journal}` plus the
/// previous generation of each (`snapshot.prev`, `journal.prev`), the room as
/// it was created (`snapshot.origin`), and the temporary files a snapshot and
/// a fresh journal are written to before they are renamed into place.
struct RoomPaths {
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
    /// Whether `name` is a room name that stays inside the rooms directory:
    /// `[A-Za-z0-9_.-]{1,24}`, and not "." or "..".
    public static func isValidRoomName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...24).contains(bytes.count), name != ".", name != ".." else { return false }
        return bytes.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
        }
    }

    func paths(_ name: String) throws(RoomStoreError) -> RoomPaths {
        guard Self.isValidRoomName(name) else { throw .invalidName(name) }
        return RoomPaths(roomsDirectory: roomsDirectory, name: name)
    }
}
