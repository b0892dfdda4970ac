import PuzzleClient

/// The colour depth a terminal type (RFC 1091's name, as `TERM` spells it) stands for.
///
/// The name is all a telnet client tells (no `COLORTERM`, no `NO_COLOR`): `dumb` gets no
/// colour; a name saying `direct`, `truecolor` or `24bit`, or a terminal known to draw
/// 24-bit colour, gets it; `256color` gets the 256 palette; anything else the 16 ANSI
/// colours (every terminal of the last thirty years draws them). Case does not matter:
/// many clients send the name upper-cased, as RFC 1091 suggests.
public enum TerminalTypeColor {
    /// Terminal types whose every version draws 24-bit colour though their name says less.
    static let trueColorTerminals = ["xterm-kitty", "alacritty", "wezterm", "iterm2", "xterm-ghostty", "foot", "contour"]

    public static func mode(for terminalType: String) -> ColorMode {
        let name = terminalType.lowercased()
        if name == "dumb" || name.isEmpty { return .plain }
        if name.contains("direct") || name.contains("truecolor") || name.contains("24bit") { return .trueColor }
        if trueColorTerminals.contains(where: { name.hasPrefix($0) }) { return .trueColor }
        if name.contains("256color") || name.contains("256colour") { return .palette256 }
        return .palette16
    }
}
