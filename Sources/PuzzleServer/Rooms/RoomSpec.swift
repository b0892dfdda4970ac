import PuzzleCore
/// The kind of board a configured room plays.
public enum RoomKindSetting: String, Equatable, Sendable, CaseIterable {
    /// Free-form jigsaw: pieces start in a tray and are dropped onto grid cells.
    case jigsaw
    /// Swap board: every cell holds a tile; dropping a tile on another swaps them.
    case swap
}

/// One room the server opens at start-up.
///
/// Written in the config file as
/// `room = NAME KIND ROWSxCOLS [picture=NAME] [rotation=on|off] [password=SECRET]`
/// and on the command line as `--room "NAME KIND ROWSxCOLS ..."`; see ``parse(_:)``.
public struct RoomSpec: Equatable, Sendable, CustomStringConvertible {
    /// Longest password.
    public static let maxPasswordLength = 64

    /// Room name (`NameRule`); unique within a config.
    public var name: String
    /// Jigsaw or swap.
    public var kind: RoomKindSetting
    /// Rows of the board, in `PuzzleSpec.sizeRange`.
    public var rows: Int
    /// Columns of the board, in `PuzzleSpec.sizeRange`.
    public var cols: Int
    /// Name of the picture cut into pieces: a built-in picture or one declared
    /// with a `picture = NAME PATH` line. The server resolves it; the config does not.
    public var picture: String
    /// Whether pieces start rotated and may be turned in 90° steps (jigsaw only).
    public var rotation: Bool
    /// Secret a player must give to join, or nil for an open room.
    public var password: String?

    public init(
        name: String,
        kind: RoomKindSetting,
        rows: Int,
        cols: Int,
        picture: String = PuzzleSpec.defaultPicture,
        rotation: Bool = false,
        password: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.rows = rows
        self.cols = cols
        self.picture = picture
        self.rotation = rotation
        self.password = password
    }

    /// The spec in the same syntax ``parse(_:)`` reads, so `parse(spec.description) == spec`.
    /// Options equal to their default are left out; the password is written out as-is.
    public var description: String {
        var text = "\(name) \(kind.rawValue) \(rows)x\(cols)"
        if picture != PuzzleSpec.defaultPicture {
            text += " picture=\(picture)"
        }
        if rotation {
            text += " rotation=on"
        }
        if let password {
            text += " password=\(password)"
        }
        return text
    }

}
