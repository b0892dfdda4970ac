/// Remembers what the terminal shows so each new frame is sent as a difference.
public struct FrameRenderer: Sendable {
    /// How colours are written.
    public var colorMode: ColorMode
    /// The frame last rendered, or nil when the screen content is unknown.
    public private(set) var lastFrame: Frame?

    /// A renderer whose first frame redraws the whole screen.
    public init(colorMode: ColorMode) {
        self.colorMode = colorMode
        self.lastFrame = nil
    }

    /// The bytes that bring the terminal from the last frame to `frame`, as one
    /// synchronized update (nothing when nothing changed); write them in one go.
    public mutating func render(_ frame: Frame) -> [UInt8] {
        let changes = frame.diff(from: lastFrame, colorMode: colorMode)
        lastFrame = frame
        guard !changes.isEmpty else { return [] }
        return ANSI.beginSynchronizedUpdate + changes + ANSI.endSynchronizedUpdate
    }

    /// Forgets the screen content so the next `render` redraws everything (after a resize,
    /// a colour mode change, or anything else writing to the terminal).
    public mutating func invalidate() {
        lastFrame = nil
    }
}
