import PuzzleCore

/// Every player's colour (and, without colours, marker character), fixed by id
/// so that all clients agree on who is who.
public enum PlayerPalette {
    /// Distinct, bright colours that read on dark and light pictures.
    public static let colors: [TerminalColor] = [
        0xE6194B, 0x3CB44B, 0x4363D8, 0xF58231, 0x911EB4, 0x42D4F4, 0xF032E6, 0xBFEF45,
    ].map { TerminalColor(hex: $0) }

    /// Characters standing for players in plain mode; none of them is used for shading or borders.
    public static let markers: [Character] = ["#", "@", "%", "&", "$", "*", "~", "o"]

    static func index(_ id: PlayerID) -> Int {
        ((id.rawValue - 1) % colors.count + colors.count) % colors.count
    }

    public static func color(of id: PlayerID) -> TerminalColor { colors[index(id)] }
    public static func marker(of id: PlayerID) -> Character { markers[index(id)] }
    /// The marker as its one scalar (every marker is one).
    static func markerScalar(of id: PlayerID) -> Unicode.Scalar { marker(of: id).unicodeScalars.first ?? "?" }
}

extension TerminalColor {
    init(_ rgb: RGB) { self.init(red: rgb.r, green: rgb.g, blue: rgb.b) }

    /// Perceived brightness, 0-255.
    var luminance: Int { (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) / 1000 }

    /// Black or white, whichever reads better on this colour.
    var contrasting: TerminalColor {
        luminance > 140 ? TerminalColor(hex: 0x000000) : TerminalColor(hex: 0xFFFFFF)
    }
}
