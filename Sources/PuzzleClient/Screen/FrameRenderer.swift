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
        // Into one buffer from the start: no copy of the changes to wrap them.
        var output = ANSI.beginSynchronizedUpdate
        output.reserveCapacity(8192)
        frame.appendDiff(from: lastFrame, colorMode: colorMode, to: &output)
        lastFrame = frame
        guard output.count > ANSI.beginSynchronizedUpdate.count else { return [] }
        output += ANSI.endSynchronizedUpdate
        return output
    }

    /// Forgets the screen content so the next `render` redraws everything (after a resize,
    /// a colour mode change, or anything else writing to the terminal).
    public mutating func invalidate() {
        lastFrame = nil
    }
}
