import PuzzleCore
import PuzzleProtocol

/// A picture file the player names for a room (`/create trip jigsaw 10x10
/// picture=~/Photos/trip.jpg`): told from a picture's name by its shape, and
/// uploaded under a name made from the file's.
public struct PictureFile: Hashable, Sendable {
    /// The path as typed (`~` not yet expanded: the driver reads the file).
    public var path: String
    /// The picture name it is uploaded as.
    public var name: String
    /// The room to create from it once it is uploaded.
    public var spec: RoomSpec
    /// The name first tried (`name` gets `-2`, `-3` when it is taken).
    public var baseName: String
    /// How many names were taken before `name`.
    public var attempt = 0

    public init(path: String, name: String, spec: RoomSpec) {
        self.path = path
        self.name = name
        self.spec = spec
        baseName = name
    }

    /// The most bytes the client reads of a file: well over any server's
    /// upload limit (10 MiB by default), so the server's refusal says how
    /// much it takes, yet no huge file is read whole into memory.
    public static let maxBytes = 64 << 20

    /// Whether a `picture=` value names a file rather than a picture: it has
    /// a `/`, starts with `~`, or ends in `.png`, `.jpg` or `.jpeg` (a
    /// server's picture names come without extensions). `./trip.jpg` names a
    /// file in the current directory.
    public static func isPath(_ value: String) -> Bool {
        let lower = value.lowercased()
        return value.contains("/") || value.hasPrefix("~")
            || lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
    }

    /// The picture name a file is uploaded as: its base name without the
    /// extension, every byte the name rule does not allow made `_`, at most
    /// 24 bytes; `photo` if nothing is left (`~/Photos/IMG 2041.JPG` is
    /// `IMG_2041`).
    public static func pictureName(forPath path: String) -> String {
        var base = Substring(path.split(separator: "/").last ?? "")
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        let bytes = base.utf8.map { b -> UInt8 in
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): b
            default: UInt8(ascii: "_")
            }
        }
        let name = String(decoding: bytes.prefix(NameRule.maxLength), as: UTF8.self)
        return NameRule.isValid(name) ? name : "photo"
    }
}

/// Why a picture file could not be read (missing, a directory, too large).
public struct PictureFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
