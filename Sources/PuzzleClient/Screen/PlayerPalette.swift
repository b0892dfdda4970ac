import PuzzleCore

/// Every player's colour (and, without colours, marker character), chosen by
/// the player's colour slot in its room (`PlayerInfo.colorSlot`), which the
/// server gives so that no two players present in a room share one. All
/// clients draw a slot alike, so everyone agrees on who is who.
public enum PlayerPalette {
    /// Twelve saturated colours of middle brightness (luminance 80-175), so
    /// that each reads on dark and on light terminals and pictures, chosen
    /// far apart in hue and lightness; each maps to its own entry of the
    /// 256-colour palette (`ColorMode.nearestXterm256`), so they stay apart
    /// there too.
    public static let colors: [TerminalColor] = [
        0xE6194B, 0x3CB44B, 0x4363D8, 0xF58231, 0x911EB4, 0x42D4F4,
        0xF032E6, 0xA9C92A, 0x469990, 0x9A6324, 0xFA6E9B, 0x808000,
    ].map { TerminalColor(hex: $0) }

    /// Characters standing for players in plain mode (`NO_COLOR`), one per
    /// colour: single-column ASCII, none used for shading (` .:-=+`),
    /// borders (`|-+`), arrows (`<>^v/\`) or piece numbers.
    public static let markers: [Character] = ["#", "@", "%", "&", "$", "*", "~", "o", "x", "!", "[", "{"]

    /// The colour slot a player is drawn with: its slot in `slots` (the
    /// room's, `RoomState.colorSlots`), or, for a player the room does not
    /// list (a version 1 snapshot, a player who left), one derived from its id.
    public static func slot(of id: PlayerID, in slots: [PlayerID: Int]) -> Int {
        slots[id] ?? max(0, id.rawValue - 1)
    }

    /// Slot `n`'s colour: the `n`th, repeating after twelve.
    public static func color(slot: Int) -> TerminalColor { colors[slot % colors.count] }

    /// Slot `n`'s marker. The first twelve slots have the twelve markers in
    /// colour order; beyond them the marker shifts by one each round, so
    /// that the first 144 slots all differ by their colour and marker pair
    /// (slots 0 and 12 share red but not `#`).
    public static func marker(slot: Int) -> Character {
        markers[(slot % markers.count + slot / colors.count) % markers.count]
    }

    public static func color(of id: PlayerID, in slots: [PlayerID: Int]) -> TerminalColor { color(slot: slot(of: id, in: slots)) }
    public static func marker(of id: PlayerID, in slots: [PlayerID: Int]) -> Character { marker(slot: slot(of: id, in: slots)) }
    /// The marker as its one scalar (every marker is one).
    static func markerScalar(of id: PlayerID, in slots: [PlayerID: Int]) -> Unicode.Scalar {
        marker(of: id, in: slots).unicodeScalars.first ?? "?"
    }
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
