/// How much colour the terminal can show.
public enum ColorMode: Hashable, Sendable, CaseIterable {
    /// 24-bit colour (SGR 38;2 / 48;2).
    case trueColor
    /// The xterm 256-colour palette (SGR 38;5 / 48;5).
    case palette256
    /// The 16 ANSI colours (SGR 30–37, 90–97 and 40–47, 100–107).
    case palette16
    /// No colour sequences at all.
    case plain

    /// Picks the mode from the environment.
    ///
    /// - `plain` when output is not a terminal, `TERM` is `dumb`, or `NO_COLOR` is set to a
    ///   non-empty value (no-color.org: "when present and not an empty string").
    /// - `trueColor` when `COLORTERM` is `truecolor` or `24bit`.
    /// - `palette256` when `TERM` contains `256color`.
    /// - `palette16` otherwise.
    public static func detect(environment: [String: String], isTTY: Bool) -> ColorMode {
        guard isTTY else { return .plain }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .plain }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if term.contains("256color") { return .palette256 }
        return .palette16
    }
}
