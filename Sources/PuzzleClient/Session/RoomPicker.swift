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
        /// The room the player was in last (kept with its resume token):
        /// joined again without asking, whatever else there is.
        case back(String)
    }

    /// Why the room the player was in last is not gone back to (it is gone,
    /// or asks a password the client does not keep), for the player; set by
    /// `read`.
    private(set) var notBack: String?

    /// Reads a ROOMS reply's `S room` lines (others are not rooms).
    /// `back`: the room the player was in last, gone back to when it is
    /// still there and open (else `notBack` says why not).
    mutating func read(_ lines: [String], back: String? = nil) -> Choice {
        let listed = lines.compactMap { line -> RoomListing? in
            if case .room(let listed)? = StateRecordCodec.decode(Substring(line)) { listed } else { nil }
        }
        let names = listed.map(\.name)
        notBack = nil
        if let back {
            if let room = listed.first(where: { $0.name == back }) {
                guard room.password else { return .back(back) }
                notBack = "room \(back), where you were, asks its password: /join \(back) PASSWORD"
            } else {
                notBack = "room \(back), where you were, is gone"
            }
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
