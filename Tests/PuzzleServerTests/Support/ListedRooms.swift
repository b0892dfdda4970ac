import PuzzleProtocol

/// The rooms a ROOMS reply's `S room` lines list, by name, read through the
/// one state-record codec (as the play client reads them).
func listedRooms(_ lines: [String]) -> [String: RoomListing] {
    var rooms: [String: RoomListing] = [:]
    for line in lines {
        if case .room(let listed)? = StateRecordCodec.decode(Substring(line)) { rooms[listed.name] = listed }
    }
    return rooms
}
