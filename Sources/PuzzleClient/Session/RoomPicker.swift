import PuzzleProtocol

/// Start-up in no room: what the server's room list (`ROOMS`) leaves the
/// player, and the rooms to pick from, kept until the full screen takes them
/// (it opens a window with them).
struct RoomPicker: Sendable {
    /// The rooms on offer, as a player reads them (`PlayerText.listingEntry`), until taken.
    private(set) var offered: [String]?

    /// What the list means.
    enum Choice: Equatable, Sendable {
        /// No room at all.
        case none
        /// The only room: joined without asking.
        case only(String)
        /// Several: the player picks (`offered` has them); their names.
        case pick([String])
    }

    /// Reads a ROOMS reply's `S room` lines (others are not rooms).
    mutating func read(_ lines: [String]) -> Choice {
        let names = lines.compactMap { line -> String? in
            if case .room(let listed)? = StateRecordCodec.decode(Substring(line)) { listed.name } else { nil }
        }
        switch names.count {
        case 0: return .none
        case 1: return .only(names[0])
        default:
            offered = lines.map(PlayerText.listingEntry)
            return .pick(names)
        }
    }

    /// The rooms to pick from, once.
    mutating func take() -> [String]? {
        defer { offered = nil }
        return offered
    }
}
