extension Frame {
    /// One column of the screen: a character and how it is drawn.
    public struct Cell: Hashable, Sendable {
        /// What is shown: one or (`DisplayWidth` 2) two terminal columns; a space in a continuation.
        public var character: Character
        /// How it is drawn.
        public var style: Style
        /// The right half of the wide character in the cell to its left, which draws it: a
        /// continuation is never written to the terminal on its own.
        public private(set) var isContinuation = false

        /// A space in the default style.
        public static let blank = Cell(" ")

        /// A cell showing `character` in `style`.
        public init(_ character: Character, style: Style = .default) {
            self.character = character
            self.style = style
        }

        /// The right half of a wide character drawn in `style`.
        static func continuation(style: Style) -> Cell {
            var cell = Cell(" ", style: style)
            cell.isContinuation = true
            return cell
        }
    }

    /// Colours and attributes of a cell. Nil colours mean the terminal's default.
    public struct Style: Hashable, Sendable {
        /// Text colour; nil for the terminal default.
        public var foreground: TerminalColor?
        /// Background colour; nil for the terminal default.
        public var background: TerminalColor?
        /// Bold (SGR 1).
        public var bold: Bool
        /// Underlined (SGR 4).
        public var underline: Bool
        /// Foreground and background swapped (SGR 7); visible even in `plain` mode.
        public var inverse: Bool

        /// The terminal's default colours, no attributes.
        public static let `default` = Style()

        /// A style; every part defaults to the terminal's default.
        public init(
            foreground: TerminalColor? = nil,
            background: TerminalColor? = nil,
            bold: Bool = false,
            underline: Bool = false,
            inverse: Bool = false
        ) {
            self.foreground = foreground
            self.background = background
            self.bold = bold
            self.underline = underline
            self.inverse = inverse
        }
    }
}

extension Frame.Cell {
    /// The cell as `colorMode` can show it: without colours in `plain` mode, so a colour-only
    /// change there neither redraws the cell nor emits SGR.
    func shown(in colorMode: ColorMode) -> Frame.Cell {
        guard colorMode == .plain, style.foreground != nil || style.background != nil else { return self }
        var plain = self
        plain.style.foreground = nil
        plain.style.background = nil
        return plain
    }
}
