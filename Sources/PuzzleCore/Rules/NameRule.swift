/// The one rule for every name: players, rooms and pictures, whether they come
/// over the wire, from the config file or from the data directory.
///
/// A name is 1-24 bytes of `A-Z a-z 0-9 _ - .`, and not `.` or `..`: a room
/// name is also the name of its directory under the data directory, so it must
/// never point elsewhere.
public enum NameRule {
    /// Longest name, in bytes.
    public static let maxLength = 24

    /// Whether `text` is a valid name.
    public static func isValid(_ text: some StringProtocol) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength, text != ".", text != ".." else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }

    /// How the rule reads in messages.
    public static let summary = "1-24 of A-Z a-z 0-9 _ - . (not . or ..)"
}
