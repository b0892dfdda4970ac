/// A 24-bit colour; `ColorMode` turns it into the nearest colour the terminal can show.
public struct TerminalColor: Hashable, Sendable {
    /// Red component, 0–255.
    public var red: UInt8
    /// Green component, 0–255.
    public var green: UInt8
    /// Blue component, 0–255.
    public var blue: UInt8

    /// Creates a colour from its red, green and blue components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Creates a colour from 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    /// Squared Euclidean distance in RGB space, the measure used to pick palette entries.
    func distanceSquared(to other: TerminalColor) -> Int {
        let dr = Int(red) - Int(other.red)
        let dg = Int(green) - Int(other.green)
        let db = Int(blue) - Int(other.blue)
        return dr * dr + dg * dg + db * db
    }
}
