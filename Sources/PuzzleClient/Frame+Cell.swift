extension Frame {
    /// One column of the screen: a character and how it is drawn.
    public struct Cell: Hashable, Sendable {
        public var character: Character
        public var style: Style

        /// A space in the default style.
        public static let blank = Cell(" ")

        public init(_ character: Character, style: Style = .default) {
            self.character = character
            self.style = style
        }
    }

    /// Colours and attributes of a cell. Nil colours mean the terminal's default.
    public struct Style: Hashable, Sendable {
        public var foreground: TerminalColor?
        public var background: TerminalColor?
        public var bold: Bool
        public var underline: Bool
        public var inverse: Bool

        /// The terminal's default colours, no attributes.
        public static let `default` = Style()

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
