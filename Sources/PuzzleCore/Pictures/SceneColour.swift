/// A colour with channels nominally in 0...1, used while drawing the built-in
/// pictures (clamped only when converted to `RGB`, so mixes may overshoot).
struct SceneColour {
    var r: Double
    var g: Double
    var b: Double

    init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Piecewise-linear interpolation through evenly spaced `stops`, t clamped to 0...1.
    static func ramp(_ stops: [SceneColour], at t: Double) -> SceneColour {
        precondition(stops.count >= 2, "a ramp needs two stops")
        let position = min(max(t, 0), 1) * Double(stops.count - 1)
        // Clamped both ways: t == 1 (or a rounding just above it) must not read past the end.
        let index = min(max(Int(position), 0), stops.count - 2)
        return stops[index].mixed(with: stops[index + 1], by: position - Double(index))
    }

    func mixed(with other: SceneColour, by t: Double) -> SceneColour {
        SceneColour(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
    }

    func scaled(by factor: Double) -> SceneColour {
        SceneColour(r * factor, g * factor, b * factor)
    }

    func adding(_ other: SceneColour) -> SceneColour {
        SceneColour(r + other.r, g + other.g, b + other.b)
    }

    var rgb: RGB {
        RGB(r: Self.channel(r), g: Self.channel(g), b: Self.channel(b))
    }

    private static func channel(_ value: Double) -> UInt8 {
        // `min(max(...))` also maps NaN to 0, so no input can trap the conversion.
        let clamped = value >= 0 ? min(value, 1) : 0
        return UInt8((clamped * 255).rounded())
    }
}
